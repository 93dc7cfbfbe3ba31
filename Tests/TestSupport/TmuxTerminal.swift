import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real terminal for end-to-end tests of full-screen views: one program running in a tmux
/// server of its own (private socket, no user configuration), driven by `send` and read back with
/// `screen()`, as a person sees it. Needs the Debian package tmux.
///
/// A shell runs the program and writes its exit status to a file: tmux 3.3a (Debian 12) at times
/// never learns the status of a pane whose terminal closed before the program was reaped
/// (pane_dead 1, pane_dead_status empty for good; tmux/tmux#4841).
public final class TmuxTerminal: @unchecked Sendable {
    private let folder: String
    private let socket: String
    private let statusFile: String

    /// Starts `executable` with exactly `environment` (plus `TERM`), in `workingDirectory`, on a
    /// terminal of `columns` × `rows`.
    public init(
        _ executable: String, arguments: [String], environment: [String: String], workingDirectory: String,
        columns: Int = 80, rows: Int = 24
    ) throws {
        var template = Array((NSTemporaryDirectory() + "smfplay-tmux-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("cannot create a folder for tmux: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        socket = folder + "/socket"
        statusFile = folder + "/exit-status"
        let configuration = folder + "/tmux.conf"
        try "set -g remain-on-exit on\nset -g status off\nset -g history-limit 0\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        var variables = environment
        variables["TERM"] = "tmux-256color"
        let recordStatus = #"status=$1; shift; "$@"; echo $? > "$status.new" && mv "$status.new" "$status""#
        let command =
            ["env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + ["/bin/sh", "-c", recordStatus, "sh", statusFile, executable] + arguments
        // The server must not inherit the test runner's blocked signals, or the program in it never
        // sees SIGINT or SIGTERM.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let tmux = try Self.tmuxPath()
        let arguments =
            [
                "-S", socket, "-f", configuration, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                "-c", workingDirectory, "--",
            ] + command
        switch spawnWithCleanSignals(tmux, arguments, environment: ["PATH": "/usr/bin:/bin", "TMPDIR": folder], actions: &actions) {
        case .success(let pid):
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            guard status == 0 else { throw TestFailure("tmux new-session failed (status \(status))") }
        case .failure(let error):
            throw TestFailure("cannot start tmux: \(error.description)")
        }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Types keys, in tmux's names: `"Enter"`, `"Up"`, `"BSpace"`, `"Escape"`, `"PPage"`, `"q"`…
    public func send(_ keys: String...) throws {
        _ = try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Types text as it is, character by character.
    public func type(_ text: String) throws {
        _ = try tmux(["send-keys", "-t", "0", "-l", text])
    }

    public func resize(columns: Int, rows: Int) throws {
        _ = try tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The screen's lines, as shown (trailing spaces removed); with `attributes`, with the escape
    /// sequences of their colours and reverse video (`ESC[7m`) in place.
    public func screen(attributes: Bool = false) throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "0"] + (attributes ? ["-e"] : [])).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The screen once `condition` holds for it, checked every 50 ms; fails after `seconds`.
    @discardableResult
    public func waitForScreen(_ description: String, atMost seconds: Double = 10, until condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines = try screen()
        while !condition(lines) {
            guard Date() < deadline else {
                throw TestFailure("the screen did not show \(description) within \(seconds) s; it shows:\n" + lines.joined(separator: "\n"))
            }
            usleep(50_000)
            lines = try screen()
        }
        return lines
    }

    /// Waits until some line contains `text`.
    @discardableResult
    public func waitFor(_ text: String, atMost seconds: Double = 10) throws -> [String] {
        try waitForScreen("“\(text)”", atMost: seconds) { $0.contains { $0.contains(text) } }
    }

    /// The program's exit status (128 + the signal if a signal ended it) once it has ended,
    /// waiting `seconds` at most; nil if it still runs.
    public func exitStatus(waitingAtMost seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let text = try? String(contentsOfFile: statusFile, encoding: .utf8) {
                return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard Date() < deadline else { return nil }
            usleep(50_000)
        }
    }

    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.tmuxPath())
        process.arguments = ["-S", socket] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func tmuxPath() throws -> String {
        for path in ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"] where access(path, X_OK) == 0 { return path }
        throw TestFailure("tmux is not installed (Debian package tmux; `make deps` installs it)")
    }
}
