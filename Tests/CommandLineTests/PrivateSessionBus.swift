import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A D-Bus session bus of the test's own (`dbus-daemon --session --nofork`), so that smfplay's
/// MPRIS service is seen by real clients (playerctl, busctl, dbus-send) without a desktop and
/// without reaching the desktop's bus. Stopped when dropped. Needs the Debian packages
/// dbus-daemon, dbus-bin, systemd (busctl) and playerctl.
final class PrivateSessionBus {
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    /// The folder of its socket.
    private let folder: String
    private let daemon: pid_t
    private var monitors: [pid_t] = []

    /// With `refusingMPRISNames`, the bus lets no client own an MPRIS name, as a locked-down
    /// session's policy may.
    init(refusingMPRISNames: Bool = false) throws {
        // Short: the socket's path must fit in sockaddr_un (108 bytes).
        var template = Array("/tmp/smfplay-bus-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("cannot create a folder for the bus: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        let socket = folder + "/bus"
        address = "unix:path=" + socket
        var arguments = ["--session", "--nofork", "--address=" + address]
        if refusingMPRISNames {
            let configuration = folder + "/refusing.conf"
            try Self.refusingConfiguration(listeningAt: address).write(toFile: configuration, atomically: true, encoding: .utf8)
            arguments = ["--config-file=" + configuration, "--nofork"]
        }
        daemon = try Self.start("/usr/bin/dbus-daemon", arguments, output: "/dev/null")
        // The bus is there once its socket is.
        guard Self.poll(atMost: 10, until: { FileManager.default.fileExists(atPath: socket) }) else {
            Self.stop(daemon)
            throw TestFailure("dbus-daemon made no socket at \(socket) (is the Debian package dbus-daemon installed?)")
        }
    }

    /// A session bus that lets anyone own any name but an MPRIS player's.
    private static func refusingConfiguration(listeningAt address: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <deny own_prefix="org.mpris.MediaPlayer2"/>
          </policy>
        </busconfig>
        """
    }

    /// Stops the daemon where it is (SIGSTOP): its socket takes connections, and nothing answers.
    func stopAnswering() {
        kill(daemon, SIGSTOP)
    }

    deinit {
        kill(daemon, SIGCONT)
        (monitors + [daemon]).forEach(Self.stop)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts a program in the background, its standard output into a file. Not with Foundation's
    /// `Process`: its children inherit the test runner's blocked SIGTERM, and would not stop.
    private static func start(_ path: String, _ arguments: [String], output: String, environment: [String: String]? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        switch spawnWithCleanSignals(path, arguments, environment: environment ?? ProcessInfo.processInfo.environment, actions: &actions) {
        case .success(let pid): return pid
        case .failure(let error): throw TestFailure(error.description)
        }
    }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        waitpid(pid, nil, 0)
    }

    /// The environment a client of this bus needs.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("XDG_") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Runs a client of the bus (`playerctl`, `busctl`, `dbus-send`) to its end.
    func run(_ tool: String, _ arguments: [String]) throws -> Command.Result {
        try Command(URL(fileURLWithPath: "/usr/bin/" + tool), arguments: arguments, environment: environment, timeLimit: 20).run()
    }

    /// `playerctl --player=smfplay ARGUMENTS`: its standard output, trimmed, or its error.
    func playerctl(_ arguments: String...) throws -> String {
        let result = try run("playerctl", ["--player=smfplay"] + arguments)
        return result.succeeded ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "error: " + result.stderr
    }

    /// `dbus-send` a call to smfplay's MPRIS object, with a reply: nil when it succeeded, else its error.
    func call(_ method: String, _ arguments: String..., destination: String = "org.mpris.MediaPlayer2.smfplay") throws -> String? {
        let result = try run("dbus-send", ["--session", "--print-reply", "--dest=" + destination, "/org/mpris/MediaPlayer2", method] + arguments)
        return result.succeeded ? nil : result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A property of smfplay's MPRIS object, as `busctl get-property` prints it (`s "Playing"`).
    func property(_ name: String, interface: String = "org.mpris.MediaPlayer2.Player") throws -> String {
        let result = try run("busctl", ["--user", "get-property", "org.mpris.MediaPlayer2.smfplay", "/org/mpris/MediaPlayer2", interface, name])
        return result.succeeded ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "error: " + result.stderr
    }

    /// The names on the bus.
    func names() throws -> [String] {
        try run("busctl", ["--user", "list", "--no-legend", "--acquired"]).stdoutLines.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Records every signal from smfplay's object into a file (`dbus-monitor`) until the bus stops;
    /// read it with `String(contentsOfFile:)`.
    func monitorSignals(into path: String) throws {
        monitors.append(
            try Self.start(
                "/usr/bin/dbus-monitor", ["--session", "type='signal',path='/org/mpris/MediaPlayer2'"],
                output: path, environment: environment))
    }

    /// Waits until `condition` holds (true), or `seconds` have passed (false).
    static func poll(atMost seconds: Double, every interval: Double = 0.02, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return try condition()
    }
}
