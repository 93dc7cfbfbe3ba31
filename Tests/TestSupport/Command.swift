import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program to run as a person would from a shell: its arguments, its whole environment and
/// the folder it starts in. `run()` waits for it and gives back its exit status and everything it
/// wrote, each stream whole and apart.
///
/// ```swift
/// let result = try Command(smfplay, arguments: ["info", "song.mid"], workingDirectory: folder).run()
/// #expect(result.status == 0, "\(result)")
/// ```
public struct Command: Sendable {
    public var executable: URL
    public var arguments: [String]
    /// The program's whole environment; nil passes on the test runner's.
    public var environment: [String: String]?
    /// Where the program starts; nil is the test runner's current folder.
    public var workingDirectory: URL?
    /// After this many seconds the program and its process group are killed, so that a hang fails
    /// one test instead of stopping the whole run.
    public var timeLimit: TimeInterval

    public init(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: URL? = nil, timeLimit: TimeInterval = 120
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.timeLimit = timeLimit
    }

    /// Runs the program to its end. Standard input is empty (`/dev/null`); standard output and
    /// standard error are pipes, so the program sees no terminal.
    ///
    /// Both pipes are drained on their own threads while the program runs, and the program is
    /// waited for only once both have reached their end: a program that fills one pipe while the
    /// test waits on the other can never block.
    public func run() throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors

        let start = DispatchTime.now()
        try process.run()
        // Process closed its copies of the pipes' write ends: each reader sees the end of its
        // stream when the program (and anything it started) has closed its own.
        let outputReader = PipeReader(output.fileHandleForReading, start: start)
        let errorReader = PipeReader(errors.fileHandleForReading, start: start)

        // Process starts the program in a process group of its own: killing the group also ends
        // anything it started that would hold the pipes open.
        let group = process.processIdentifier
        let timedOut = TimeoutFlag()
        let timer = DispatchWorkItem {
            timedOut.set()
            kill(-group, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timer)
        let standardOutput = outputReader.wait()
        let standardError = errorReader.wait()
        process.waitUntilExit()
        timer.cancel()
        let elapsed = Self.seconds(since: start)

        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return Result(
            commandLine: ([executable.lastPathComponent] + arguments).map(Self.shellQuoted).joined(separator: " "),
            status: process.terminationStatus,
            signal: signal,
            timedOut: timedOut.isSet,
            standardOutput: standardOutput.data,
            standardError: standardError.data,
            standardOutputChunks: standardOutput.chunks,
            standardOutputEnd: standardOutput.end,
            elapsed: elapsed
        )
    }

    static func seconds(since start: DispatchTime) -> TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// An argument as a shell would need it, for messages.
    static func shellQuoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension Command {
    /// What a run of a program did.
    public struct Result: Sendable, CustomStringConvertible {
        /// The program and its arguments, quoted as for a shell.
        public var commandLine: String
        /// The exit status; when a signal ended the program, the signal's number.
        public var status: Int32
        /// The signal that ended the program, if one did (a crash, or the time limit).
        public var signal: Int32?
        /// Whether the program was killed for running past the time limit.
        public var timedOut: Bool
        public var standardOutput: Data
        public var standardError: Data
        /// When each piece of standard output arrived, in seconds from the start.
        public var standardOutputChunks: [Chunk]
        /// When standard output was closed, in seconds from the start.
        public var standardOutputEnd: TimeInterval
        /// Seconds from the start to the program's end.
        public var elapsed: TimeInterval

        /// Standard output as text.
        public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text.
        public var stderr: String { String(decoding: standardError, as: UTF8.self) }
        /// The lines of standard output, without their line feeds.
        public var stdoutLines: [String] { Self.lines(stdout) }
        /// The lines of standard error, without their line feeds.
        public var stderrLines: [String] { Self.lines(stderr) }

        /// Whether the program ended on its own with status 0.
        public var succeeded: Bool { signal == nil && status == 0 }

        /// When the standard output byte at `offset` arrived, in seconds from the start.
        public func arrivalOfStandardOutput(byte offset: Int) -> TimeInterval? {
            var end = 0
            for chunk in standardOutputChunks {
                end += chunk.byteCount
                if offset < end { return chunk.time }
            }
            return nil
        }

        /// Everything about the run, for a failing expectation's message.
        public var description: String {
            var ending = signal.map { "was killed by signal \($0)" } ?? "exited with status \(status)"
            if timedOut { ending += " (time limit)" }
            return """
                `\(commandLine)` \(ending) after \(String(format: "%.2f", elapsed)) s
                --- standard output ---
                \(stdout)
                --- standard error ---
                \(stderr)
                ---
                """
        }

        static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// A piece of output as one read returned it.
    public struct Chunk: Sendable {
        /// Seconds from the start of the program.
        public var time: TimeInterval
        public var byteCount: Int
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    struct Output {
        var data = Data()
        var chunks: [Command.Chunk] = []
        var end: TimeInterval = 0
    }

    // Written by the thread only; read by `wait()` only after the semaphore says the thread is done.
    private var output = Output()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle, start: DispatchTime) {
        let thread = Thread { [self] in
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.data.append(contentsOf: buffer[..<count])
                    output.chunks.append(Command.Chunk(time: Command.seconds(since: start), byteCount: count))
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            output.end = Command.seconds(since: start)
            try? handle.close()
            done.signal()
        }
        thread.start()
    }

    func wait() -> Output {
        done.wait()
        return output
    }
}

/// Set once, from the timer's thread.
private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
