import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private PulseAudio server for one test: its own runtime folder (mode 700) and socket, no
/// configuration file, no hardware, one null sink (`test_null`) whose monitor records whatever
/// reaches it. Works on a machine with no sound card and no desktop, as root or not; needs the
/// Debian packages pulseaudio and pulseaudio-utils (`parec`, `pactl`).
///
/// Every instance is a server of its own, so tests using it can run in parallel. `stop()` (or
/// dropping the instance) ends it and removes its folder.
///
/// ```swift
/// let server = try PulseAudioServer()
/// let recording = try server.record()
/// let sink = try PulseAudioSink(server: server.address, ...)
/// ...
/// let audio = try recording.stop()
/// ```
public final class PulseAudioServer: @unchecked Sendable {
    public static let sinkName = "test_null"

    /// The null sink's rate (and the recordings'); its samples are 32-bit float stereo, so a
    /// stream of the same format reaches the monitor bit for bit.
    public let sampleRate: Int
    public let runtimeDirectory: String
    /// The address clients connect to: `unix:<runtime folder>/pulse/native`.
    public let address: String
    /// The daemon's process id (another after ``restart()``).
    public private(set) var pid: pid_t

    private let lock = NSLock()
    private var isStopped = false
    private var recordingCount = 0
    /// A recorder that stays connected while the server runs: see `settle()`.
    private var keepAlive: Recording?
    /// Where a restarted server listens until its socket takes the old one's place (``restart()``).
    private var stagingAddress: String?

    public init(sampleRate: Int = 48_000) throws {
        // Short: the socket's path must fit in sockaddr_un (108 bytes).
        var temporary = NSTemporaryDirectory()
        while temporary.count > 1, temporary.hasSuffix("/") { temporary.removeLast() }
        var template = Array((temporary + "/smfplay-pulse-XXXXXX").utf8CString)
        guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure("cannot create a runtime folder: \(String(cString: strerror(errno)))")
        }
        let runtime = String(cString: folder)
        // The server refuses a runtime folder that others can read.
        chmod(runtime, 0o700)
        let pid: pid_t
        do {
            pid = try Self.launch(runtime: runtime, sampleRate: sampleRate)
        } catch {
            try? FileManager.default.removeItem(atPath: runtime)
            throw error
        }
        self.sampleRate = sampleRate
        self.runtimeDirectory = runtime
        self.address = "unix:" + runtime + "/pulse/native"
        self.pid = pid
        do {
            try settle()
        } catch {
            stop()
            throw error
        }
    }

    /// Starts a daemon in `runtime` and returns its process id once its socket is up.
    private static func launch(runtime: String, sampleRate: Int) throws -> pid_t {
        let socket = runtime + "/pulse/native"
        let log = runtime + "/log"

        let arguments = [
            // -n: no default.pa, hence no ALSA, udev or D-Bus modules: only what is loaded here.
            "-D", "-n", "--exit-idle-time=-1", "--system=false",
            "--load=module-native-protocol-unix",
            "--load=module-null-sink sink_name=\(sinkName) format=float32le rate=\(sampleRate) channels=2",
            "--log-target=file:\(log)",
        ]
        // HOME too, so that the cookie and state files of parallel servers stay apart.
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime, "HOME": runtime]) { $1 }
        let launcher: pid_t
        do {
            launcher = try spawn("/usr/bin/pulseaudio", arguments, environment: environment)
        } catch {
            throw Failure("cannot run pulseaudio (install pulseaudio and pulseaudio-utils): \(error)")
        }
        // With -D the launcher returns once the daemon is up (or has failed).
        var launcherStatus: Int32 = 0
        while waitpid(launcher, &launcherStatus, 0) < 0, errno == EINTR {}

        // The socket and the pid file appear as the daemon starts; give it a few seconds.
        let deadline = Date().addingTimeInterval(5)
        var pid: pid_t?
        while Date() < deadline {
            if access(socket, F_OK) == 0, let text = try? String(contentsOfFile: runtime + "/pulse/pid", encoding: .utf8),
                let number = pid_t(text.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines))
            {
                pid = number
                break
            }
            usleep(10_000)
        }
        guard let pid else {
            let logText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure("pulseaudio did not start (launcher status \(launcherStatus)):\n\(logText)")
        }
        return pid
    }

    /// Starts a new server on the same socket after ``crash()``, as a desktop's is restarted by an
    /// update or by its user, and returns a recording of its monitor that began before any other
    /// client could connect: the server starts in a folder of its own, the recorder connects to it
    /// there, and only then does its socket take the old one's place (a rename, at once).
    public func restart() throws -> Recording {
        keepAlive?.end()
        keepAlive = nil
        let staging = runtimeDirectory + "/restart"
        try? FileManager.default.removeItem(atPath: staging)
        guard mkdir(staging, 0o700) == 0 else { throw Failure("cannot create \(staging): \(String(cString: strerror(errno)))") }
        pid = try Self.launch(runtime: staging, sampleRate: sampleRate)
        stagingAddress = "unix:" + staging + "/pulse/native"
        defer { stagingAddress = nil }
        try settle()
        let recording = try record()
        guard rename(staging + "/pulse/native", runtimeDirectory + "/pulse/native") == 0 else {
            throw Failure("cannot move the new server's socket into place: \(String(cString: strerror(errno)))")
        }
        return recording
    }

    /// Brings the null sink to a short block, where it stays. Alone, it renders 2 seconds at a
    /// time (its longest latency) and sleeps in between: a stream or a recorder that connects
    /// meanwhile gets nothing until the block ends. A recorder asking for 20 ms, kept connected,
    /// sets the block; suspending and resuming the sink ends the long block at once. (Its file
    /// grows by 8 bytes a frame, 384 KB a second at 48 kHz, and goes with the folder.)
    private func settle() throws {
        let recorder = try Recording(path: runtimeDirectory + "/keep-alive.raw", sampleRate: sampleRate, environment: clientEnvironment)
        keepAlive = recorder
        let deadline = Date().addingTimeInterval(5)
        while try sourceOutputs().isEmpty {
            guard recorder.isRunning, Date() < deadline else { throw Failure("parec did not connect to \(address)") }
            usleep(5_000)
        }
        try pactl(["suspend-sink", Self.sinkName, "1"])
        try pactl(["suspend-sink", Self.sinkName, "0"])
        while recorder.framesSoFar == 0 {
            guard Date() < deadline else { throw Failure("the null sink of \(address) does not run") }
            usleep(5_000)
        }
    }

    deinit {
        stop()
    }

    /// The environment for a client program: the test runner's, with `PULSE_SERVER` set.
    public var clientEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": stagingAddress ?? address]) { $1 }
    }

    /// Ends the server (SIGTERM, then SIGKILL after 2 seconds) and removes its folder. Idempotent.
    public func stop() {
        guard
            lock.withLock({ () -> Bool in
                defer { isStopped = true }
                return !isStopped
            })
        else { return }
        keepAlive?.end()
        end(with: SIGTERM)
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// Kills the server as a crash would (SIGKILL) and waits until it is gone; the folder stays
    /// until `stop()`.
    public func crash() {
        end(with: SIGKILL)
    }

    private func end(with signal: Int32) {
        guard kill(pid, signal) == 0 else { return }
        let deadline = Date().addingTimeInterval(2)
        while Self.isAlive(pid), Date() < deadline { usleep(5_000) }
        if Self.isAlive(pid) {
            kill(pid, SIGKILL)
            while Self.isAlive(pid) { usleep(5_000) }
        }
    }

    /// Whether a process still runs. The daemon is usually not our child, but may become one
    /// (when the test runner reaps orphans): a zombie counts as gone, and is reaped if ours.
    static func isAlive(_ pid: pid_t) -> Bool {
        if waitpid(pid, nil, WNOHANG) == pid { return false }
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return !stat[close...].hasPrefix(") Z")
    }

    /// Starts a program with its output where asked and clean signals (see `spawnWithCleanSignals`).
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String],
        standardOutput: Int32? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else: a pipe another test is reading must not stay open in a daemon or a recorder.
        // (glibc 2.34 has it; Swift's Glibc module does not declare it.)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }

        switch spawnWithCleanSignals(path, arguments, environment: environment, actions: &actions) {
        case .success(let pid): return pid
        case .failure(let error): throw Failure(error.description)
        }
    }

    /// The lines of `pactl list short sink-inputs`: one per playback stream connected.
    public func sinkInputs() throws -> [String] {
        try pactl(["list", "short", "sink-inputs"])
    }

    /// The lines of `pactl list short source-outputs`: one per recording stream connected.
    public func sourceOutputs() throws -> [String] {
        try pactl(["list", "short", "source-outputs"])
    }

    @discardableResult
    private func pactl(_ arguments: [String]) throws -> [String] {
        let result = try Command(
            URL(fileURLWithPath: "/usr/bin/pactl"), arguments: arguments,
            environment: clientEnvironment, timeLimit: 10
        ).run()
        guard result.succeeded else { throw Failure("pactl failed:\n\(result)") }
        return result.stdoutLines.filter { !$0.isEmpty }
    }

    /// Starts recording the null sink's monitor with `parec` (raw float32 stereo at the sink's
    /// rate, 20 ms fragments: a recorder with the default latency loses audio) and returns once
    /// the recorder is connected and delivering, so that nothing played afterwards is missed.
    ///
    /// The monitor delivers in real time, 20 ms at a time, a little ahead of the clock (the null
    /// sink renders a block ahead); a busy machine may drop some. Measure spans within the
    /// recording rather than its length.
    /// `sink`: the null sink `test_null`, or one added with ``addNullSink(named:)``.
    public func record(sink: String = PulseAudioServer.sinkName) throws -> Recording {
        let index = lock.withLock { () -> Int in
            recordingCount += 1
            return recordingCount
        }
        return try startRecorder(path: runtimeDirectory + "/recording-\(index).raw", sink: sink)
    }

    /// Adds another null sink, as a headset connected adds a device.
    public func addNullSink(named name: String) throws {
        try pactl(["load-module", "module-null-sink", "sink_name=\(name)", "format=float32le", "rate=\(sampleRate)", "channels=2"])
    }

    /// Moves every playback stream to `sink`, as a desktop does when a headset is connected.
    public func moveStreams(to sink: String) throws {
        for line in try sinkInputs() {
            guard let index = line.split(separator: "\t").first else { continue }
            try pactl(["move-sink-input", String(index), sink])
        }
    }

    private func startRecorder(path: String, sink: String) throws -> Recording {
        let before = try sourceOutputs().count
        let recording = try Recording(path: path, sampleRate: sampleRate, environment: clientEnvironment, sink: sink)
        let deadline = Date().addingTimeInterval(5)
        // Connected, and delivering: a new recorder's first data comes a block or two later, and
        // whatever plays meanwhile would be missing from the start of the recording.
        while try sourceOutputs().count <= before || recording.framesSoFar == 0 {
            guard recording.isRunning, Date() < deadline else {
                _ = try? recording.stop()
                throw Failure("parec did not record from \(address)")
            }
            usleep(5_000)
        }
        return recording
    }

    /// A `parec` process writing the monitor to a file.
    public final class Recording: @unchecked Sendable {
        public let path: String
        public let sampleRate: Int
        private let pid: pid_t
        private let lock = NSLock()
        private var isStopped = false

        init(path: String, sampleRate: Int, environment: [String: String], sink: String = PulseAudioServer.sinkName) throws {
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard file >= 0 else { throw Failure("cannot create \(path): \(String(cString: strerror(errno)))") }
            defer { close(file) }
            self.path = path
            self.sampleRate = sampleRate
            pid = try PulseAudioServer.spawn(
                "/usr/bin/parec",
                [
                    "-d", sink + ".monitor", "--raw", "--format=float32le",
                    "--rate=\(sampleRate)", "--channels=2", "--latency-msec=20",
                ], environment: environment, standardOutput: file)
        }

        deinit {
            end()
        }

        var isRunning: Bool { lock.withLock { !isStopped } && waitpid(pid, nil, WNOHANG) == 0 }

        /// Frames in the file so far. The recording lags the sink by parec's latency (20 ms and a
        /// little), so this is the sink's position now, or earlier.
        public var framesSoFar: Int {
            var status = stat()
            guard stat(path, &status) == 0 else { return 0 }
            return Int(status.st_size) / (2 * MemoryLayout<Float>.size)
        }

        /// SIGINT, as at a terminal: parec writes what it has and exits. SIGKILL if it does not
        /// within 2 seconds.
        fileprivate func end() {
            guard
                lock.withLock({ () -> Bool in
                    defer { isStopped = true }
                    return !isStopped
                })
            else { return }
            kill(pid, SIGINT)
            let deadline = Date().addingTimeInterval(2)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() > deadline { kill(pid, SIGKILL) }
                usleep(5_000)
            }
        }

        /// Stops the recorder and returns what it recorded.
        public func stop() throws -> Audio {
            end()
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let frames = data.count / (2 * MemoryLayout<Float>.size)
            var samples = [Float](repeating: 0, count: frames * 2)
            samples.withUnsafeMutableBytes { target in
                data.withUnsafeBytes { source in
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<(frames * 2 * MemoryLayout<Float>.size)]))
                }
            }
            return Audio(samples: samples, sampleRate: sampleRate)
        }
    }

    /// Recorded stereo audio, interleaved, with the few measurements playback tests make.
    public struct Audio: Sendable {
        public var samples: [Float]
        public var sampleRate: Int

        public init(samples: [Float], sampleRate: Int) {
            self.samples = samples
            self.sampleRate = sampleRate
        }

        public var frameCount: Int { samples.count / 2 }
        public func left(_ frame: Int) -> Float { samples[2 * frame] }
        public func right(_ frame: Int) -> Float { samples[2 * frame + 1] }

        /// The runs of frames whose left channel is louder than `threshold`, joined across gaps
        /// shorter than `gap` frames (a sine crosses zero twice a period).
        public func soundingSpans(threshold: Float = 0.01, gap: Int = 480) -> [Range<Int>] {
            var spans: [Range<Int>] = []
            var start: Int?
            var lastLoud = -1
            for frame in 0..<frameCount where abs(left(frame)) > threshold {
                if let first = start, frame - lastLoud > gap {
                    spans.append(first..<(lastLoud + 1))
                    start = frame
                } else if start == nil {
                    start = frame
                }
                lastLoud = frame
            }
            if let first = start { spans.append(first..<(lastLoud + 1)) }
            return spans
        }

        /// The left channel's frequency over `frames`, from its rising zero crossings.
        public func frequency(in frames: Range<Int>) -> Double {
            var crossings: [Int] = []
            for frame in frames.dropFirst() where left(frame - 1) < 0 && left(frame) >= 0 {
                crossings.append(frame)
            }
            guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
            return Double(crossings.count - 1) * Double(sampleRate) / Double(last - first)
        }
    }

    public typealias Failure = TestFailure
}
