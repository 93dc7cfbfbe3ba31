import CPulseAudio
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Real-time playback through a PulseAudio server (or PipeWire's pulse server): one playback
/// stream of 32-bit float stereo, fed by a render closure, on libpulse's asynchronous API.
///
/// ## Threads
/// - `render(buffer, frames)` is called on libpulse's main loop thread (never on the caller's),
///   with the main loop's lock held, whenever the server wants audio: it must fill `buffer` with
///   `frames` interleaved stereo frames (`2 × frames` floats) and return. It runs in real time: it
///   must not allocate, log, do I/O, wait on a lock or call this sink. It is first called while
///   `init` connects, to fill the buffer before `resume()`.
/// - The controls (`pause`, `resume`, `flush`, `drain`, `close`, `position`) may be called from any
///   other thread. Each takes the main loop's lock only around its calls into libpulse and lets it
///   go while it waits for the server, so the render closure is kept waiting for microseconds at
///   most, never for a whole round trip. Controls called at once from several threads run one
///   after the other.
/// - `onFailure` runs on the main loop thread too: it must not call the sink either.
/// - The main loop's thread asks for real-time scheduling (see `realtimeScheduling`).
///
/// ## Latency and position
/// The stream asks for a buffer of `latency` (`tlength`, with `PA_STREAM_ADJUST_LATENCY`, which
/// makes it cover the server's own buffering too). `position` says which frame is being heard:
/// the frames written less the latency libpulse measures, interpolated between its timing updates.
///
/// The stream starts paused, with its buffer filled: call `resume()` to start playing.
public final class PulseAudioSink: @unchecked Sendable {
    // @unchecked: libpulse's objects are touched only with the threaded main loop's lock held,
    // which it owns; the counters it reads without it are atomics.
    public static let channels = PulseAudioStreamState.channels
    /// How long `init` waits for a server before it gives up: with what comes before and after
    /// the wait, a missing server is reported within 2 seconds.
    public static let connectionTimeout: Duration = .milliseconds(1500)
    /// How long a control waits for the server to answer before it decides the server is gone.
    static let answerTimeout: Duration = .seconds(2)

    public let sampleRate: Int
    /// The latency asked for; `position.latency` is the one measured.
    public let requestedLatency: Duration

    private let loop: PulseAudioMainLoop
    private let context: OpaquePointer
    private let state: PulseAudioStreamState
    private var sampleSpec: pa_sample_spec

    /// One control at a time: a control waiting for the server lets the main loop's lock go, and
    /// another (`close()` above all) must not pull the stream away meanwhile.
    private let controls = Mutex<Void>(())
    // Guarded by the main loop's lock.
    private var isClosed = false
    private var isCorked = true
    /// The latency last measured, in microseconds: libpulse has none to give for a moment after a
    /// flush or a cork, until its next timing update.
    private var knownLatency: pa_usec_t
    /// The first frame written after the last flush (nothing before it is heard any more), or
    /// the end of what a drain played out.
    private var heardFloor: Int64 = 0
    private var lastHeardFrame: Int64 = 0
    /// The latency the server granted, in microseconds: `latency` until the write path measures one.
    private let grantedLatency = Atomic<UInt64>(0)

    /// Connects to a server and opens a playback stream on its default sink.
    ///
    /// - Parameters:
    ///   - server: A server address (`unix:/run/user/1000/pulse/native`, `tcp:host:4713`), or nil
    ///     for libpulse's default, which honours `$PULSE_SERVER`. libpulse never starts a server.
    ///   - applicationName: The client's name, as the server lists it.
    ///   - streamName: The stream's name, as mixers show it (the song's title, say).
    ///   - latency: The buffer to keep, from a frame being written to its being heard.
    ///   - onFailure: Told once, on libpulse's thread, if the server goes away or drops the stream.
    ///   - render: Fills a buffer with frames: see the type's documentation.
    /// - Throws: `PulseAudioError.noServer` when no server answers within `connectionTimeout`,
    ///   `.streamFailed` when the server refuses the stream.
    public init(
        server: String? = nil,
        applicationName: String = "smfplay",
        streamName: String,
        sampleRate: Int,
        latency: Duration = .milliseconds(50),
        onFailure: (@Sendable (PulseAudioError) -> Void)? = nil,
        render: @escaping (UnsafeMutablePointer<Float>, Int) -> Void
    ) throws(PulseAudioError) {
        let environmentServer = getenv("PULSE_SERVER").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let address = server ?? environmentServer ?? "the default address"
        if let reason = AudioLibraries.loadPulseAudio() { throw .noServer(address: address, reason: reason) }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(clamping: max(sampleRate, 0)), channels: UInt8(Self.channels))
        guard pa_sample_spec_valid(&spec) != 0 else {
            throw .streamFailed(address: address, reason: "PulseAudio cannot play at \(sampleRate) Hz")
        }
        guard let loop = PulseAudioMainLoop(), let context = pa_context_new(loop.api, applicationName) else {
            throw .noServer(address: address, reason: "libpulse could not start")
        }
        self.loop = loop
        self.context = context
        self.sampleSpec = spec
        self.sampleRate = sampleRate
        self.requestedLatency = latency
        self.knownLatency = PulseAudioMainLoop.microseconds(latency)
        grantedLatency.store(PulseAudioMainLoop.microseconds(latency), ordering: .relaxed)
        self.state = PulseAudioStreamState(address: address, loop: loop, onFailure: onFailure, render: render)
        pa_context_set_state_callback(context, PulseAudioStreamState.contextStateCallback, state.userData)
        guard loop.start(name: "smfplay-pulse") else {
            close()
            throw .noServer(address: address, reason: "libpulse could not start its thread")
        }
        do {
            try loop.withLock { () throws(PulseAudioError) in
                // Under the lock, as every call into the running loop must be.
                loop.requestRealtimeScheduling()
                try connectContext(server: server, addressGiven: server != nil || environmentServer != nil)
                try connectStream(name: streamName)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// The server, as the user gave it or as libpulse found it.
    public var serverAddress: String { state.address }

    /// Whether the render closure's thread runs ahead of ordinary threads (known once `init` returns).
    public var realtimeScheduling: RealtimeScheduling { loop.realtimeScheduling }

    // MARK: Connecting (main loop locked)

    private func connectContext(server: String?, addressGiven: Bool) throws(PulseAudioError) {
        // NOAUTOSPAWN: a player that fails should say so, not start a sound server behind the user's back.
        let started = pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0
        let answered =
            started
            && loop.wait(atMost: Self.connectionTimeout, context: context) {
                let contextState = pa_context_get_state(context)
                return contextState == PA_CONTEXT_READY || PA_CONTEXT_IS_GOOD(contextState) == 0
            }
        let isReady = pa_context_get_state(context) == PA_CONTEXT_READY
        if !addressGiven { state.address = Self.defaultAddress(context: context, isReady: isReady) }
        guard isReady else {
            let reason =
                started && !answered
                ? "no answer within \(Self.connectionTimeout.secondsText) seconds"
                : PulseAudioStreamState.reason(context)
            throw .noServer(address: state.address, reason: reason)
        }
        state.isConnected = true
    }

    /// The address to name when none was given: the one reached, or else the user's own socket,
    /// which is where a desktop session's server listens. (libpulse tries that first, then the
    /// system-wide socket, and would name only the last it tried.)
    private static func defaultAddress(context: OpaquePointer, isReady: Bool) -> String {
        let found = pa_context_get_server(context).map { String(cString: $0) }
        if isReady, let found { return found.hasPrefix("/") ? "unix:" + found : found }
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return "unix:\(runtime)/pulse/native"
        }
        guard let found else { return "the default address" }
        return found.hasPrefix("/") ? "unix:" + found : found
    }

    private func connectStream(name: String) throws(PulseAudioError) {
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        // Desktop mixers and PipeWire's policies put music with music.
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "music")
        guard let stream = pa_stream_new_with_proplist(context, name, &sampleSpec, nil, properties) else {
            throw .streamFailed(address: state.address, reason: PulseAudioStreamState.reason(context))
        }
        state.stream = stream
        pa_stream_set_state_callback(stream, PulseAudioStreamState.streamStateCallback, state.userData)
        pa_stream_set_write_callback(stream, PulseAudioStreamState.writeCallback, state.userData)
        pa_stream_set_underflow_callback(stream, PulseAudioStreamState.underflowCallback, state.userData)

        // The recipe of libpulse's latency control: the target length only, the rest left to the
        // server (-1), and ADJUST_LATENCY so that the target covers the sink's own buffer too.
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(clamping: pa_usec_to_bytes(knownLatency, &sampleSpec)),
            prebuf: UInt32.max,
            minreq: UInt32.max,
            fragsize: UInt32.max
        )
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_START_CORKED.rawValue
        )
        let connected =
            pa_stream_connect_playback(stream, nil, &attributes, flags, nil, nil) == 0
            && loop.wait(atMost: Self.answerTimeout, context: context) {
                let streamState = pa_stream_get_state(stream)
                return streamState == PA_STREAM_READY || PA_STREAM_IS_GOOD(streamState) == 0
            }
        guard connected, pa_stream_get_state(stream) == PA_STREAM_READY else {
            let reason =
                pa_context_get_state(context) == PA_CONTEXT_READY
                ? PulseAudioStreamState.reason(context) : "the connection broke"
            throw .streamFailed(address: state.address, reason: reason)
        }
        state.isStreaming = true
        // What the server granted: the first estimate of the latency, until it is measured.
        if let granted = pa_stream_get_buffer_attr(stream) {
            knownLatency = pa_bytes_to_usec(UInt64(granted.pointee.tlength), &sampleSpec)
        }
        grantedLatency.store(knownLatency, ordering: .relaxed)
    }

    // MARK: Controls

    /// Stops playback at once (corks the stream), keeping what is buffered for `resume()`.
    /// Returns once the server has stopped the stream and said where it stopped, so `position`
    /// is exact while paused.
    public func pause() throws(PulseAudioError) {
        try withStream(closed: ()) { (stream) throws(PulseAudioError) in
            try complete(pa_stream_cork(stream, 1, PulseAudioStreamState.signalLoop, loopPointer))
            isCorked = true
            try complete(pa_stream_update_timing_info(stream, PulseAudioStreamState.signalLoop, loopPointer))
        }
    }

    /// Starts or continues playback (uncorks the stream) from where it stopped; after `drain()`,
    /// asks the render closure for audio again first.
    public func resume() throws(PulseAudioError) {
        try withStream(closed: ()) { (stream) throws(PulseAudioError) in
            if !state.isWriting {
                state.isWriting = true
                // What the server asked for during the drain is still owed; the main loop's
                // thread renders it, the render closure's only thread.
                state.scheduleRefill()
            }
            try complete(pa_stream_cork(stream, 0, PulseAudioStreamState.signalLoop, loopPointer))
            isCorked = false
        }
    }

    /// Whether the stream is corked (it starts so).
    public var isPaused: Bool { locked { isCorked } }

    /// Drops everything buffered and not yet heard, so that what the render closure produces
    /// next is heard within the sink's own delay: how a seek or a skip takes effect at once.
    ///
    /// `switchSource` runs first, with the main loop locked, so that no render call can fall
    /// between it and the flush: every frame rendered before it is dropped (if not yet heard),
    /// every frame after it is played. It should only tell the render side where to go (an
    /// atomic store, say); `position.writtenFrames`, read inside it, is the stream frame where
    /// the new audio starts.
    public func flush(_ switchSource: () -> Void = {}) throws(PulseAudioError) {
        try withStream(closed: ()) { (stream) throws(PulseAudioError) in
            switchSource()
            heardFloor = state.writtenFrames.load(ordering: .relaxed)
            // Until the server says where the flush left the stream, an underflow is the flush's.
            state.underflowFloor = .max
            defer { state.underflowFloor = pa_stream_get_timing_info(stream)?.pointee.read_index ?? -1 }
            try complete(pa_stream_flush(stream, PulseAudioStreamState.signalLoop, loopPointer))
            // The latency libpulse knew is that of the audio just dropped.
            try complete(pa_stream_update_timing_info(stream, PulseAudioStreamState.signalLoop, loopPointer))
        }
    }

    /// Plays out what is buffered and pauses: returns once everything written has been heard
    /// (true), or after `timeout` (false). The render closure is not called meanwhile (the server
    /// must see the buffer run dry) nor afterwards: the stream is paused, and `resume()` asks for
    /// audio again. How a song ends. On a paused stream it returns false at once.
    @discardableResult
    public func drain(timeout: Duration = .seconds(5)) throws(PulseAudioError) -> Bool {
        try withStream(closed: true) { (stream) throws(PulseAudioError) -> Bool in
            // Corked, the buffer would never run dry.
            guard !isCorked else { return false }
            let deadline = ContinuousClock.now + timeout
            state.isWriting = false
            guard let operation = pa_stream_drain(stream, PulseAudioStreamState.signalLoop, loopPointer) else {
                throw currentFailure()
            }
            let drained = loop.wait(for: operation, atMost: timeout, context: context)
            if let failure = state.failure { throw failure }
            if drained {
                // The server answers once the sink has taken the last frame; the sink's own
                // buffer (its latency) has yet to play it.
                try complete(pa_stream_update_timing_info(stream, PulseAudioStreamState.signalLoop, loopPointer))
                if let timing = pa_stream_get_timing_info(stream) {
                    let remaining = min(Duration.microseconds(Int64(clamping: timing.pointee.sink_usec)), deadline - .now)
                    _ = loop.wait(atMost: remaining, context: context) { state.failure != nil }
                }
                // All of it has been heard, whatever latency the server still reports (a busy
                // server's figure lags by a few frames).
                heardFloor = state.writtenFrames.load(ordering: .relaxed)
            }
            try complete(pa_stream_cork(stream, 1, PulseAudioStreamState.signalLoop, loopPointer))
            isCorked = true
            // As after a pause: where the stream stopped, for `position`.
            try complete(pa_stream_update_timing_info(stream, PulseAudioStreamState.signalLoop, loopPointer))
            return drained
        }
    }

    /// Disconnects from the server and stops libpulse's thread; the render closure is never
    /// called again. Waits (2 seconds at most) for the server to remove the stream, so that it is
    /// gone from the server's lists when this returns, and for a control under way (a drain) to
    /// end. Idempotent; `deinit` calls it too. The other controls do nothing afterwards.
    public func close() {
        precondition(!loop.isCurrentThread, "PulseAudioSink.close() called from its own render or failure callback")
        controls.withLock { _ in closeLocked() }
    }

    private func closeLocked() {
        loop.lock()
        guard !isClosed else {
            loop.unlock()
            return
        }
        isClosed = true
        state.isClosing = true
        state.isWriting = false
        if let stream = state.stream {
            if pa_stream_get_state(stream) == PA_STREAM_READY, pa_stream_disconnect(stream) == 0 {
                _ = loop.wait(atMost: Self.answerTimeout, context: context) {
                    PA_STREAM_IS_GOOD(pa_stream_get_state(stream)) == 0
                }
            }
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_unref(stream)
            state.stream = nil
        }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        loop.unlock()
        loop.stop()
        pa_context_unref(context)
    }

    // MARK: State

    /// Which frame is being heard now, and how many were written: see `PulseAudioPlaybackPosition`.
    public var position: PulseAudioPlaybackPosition {
        locked {
            let written = state.writtenFrames.load(ordering: .relaxed)
            if !isClosed, let stream = state.stream, let measured = Self.latency(of: stream) {
                knownLatency = measured
            }
            let latencyFrames = Int64((Double(knownLatency) * Double(sampleRate) / 1_000_000).rounded())
            // Never back: a latency measured a little longer than the last must not undo a frame
            // already shown. Never before a flush (what it dropped is not heard) or a drain.
            let heard = max(written - latencyFrames, heardFloor, lastHeardFrame, 0)
            lastHeardFrame = heard
            return PulseAudioPlaybackPosition(
                writtenFrames: written, heardFrame: heard,
                latency: .microseconds(Int64(clamping: knownLatency)), sampleRate: sampleRate
            )
        }
    }

    /// How long a frame written now takes to be heard: as the write path last measured it, or
    /// what the server granted until then. Takes no lock: an interface asks many times a second.
    public var latency: Duration {
        let measured = state.measuredLatency.load(ordering: .relaxed)
        return .microseconds(Int64(clamping: measured > 0 ? measured : grantedLatency.load(ordering: .relaxed)))
    }

    /// Underruns since the stream started: the server found the buffer empty while playing.
    public var underrunCount: Int { state.underruns.load(ordering: .relaxed) }

    /// Why the server or the stream went away, once it has; nil while all is well. Polling this is
    /// an alternative to `onFailure`.
    public var failure: PulseAudioError? { state.failure }

    // MARK: Helpers

    private var loopPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(loop.pointer) }

    private func locked<Result>(_ body: () -> Result) -> Result {
        precondition(!loop.isCurrentThread, "PulseAudioSink called from its own render or failure callback")
        return loop.withLock(body)
    }

    /// Runs `body` with the main loop locked and the stream ready; after `close()` it does nothing
    /// and returns `fallback`.
    private func withStream<Result: Sendable>(
        closed fallback: Result, _ body: (OpaquePointer) throws(PulseAudioError) -> Result
    ) throws(PulseAudioError) -> Result {
        precondition(!loop.isCurrentThread, "PulseAudioSink called from its own render or failure callback")
        return try controls.withLock { (_) throws(PulseAudioError) -> Result in
            loop.lock()
            defer { loop.unlock() }
            guard !isClosed, let stream = state.stream else { return fallback }
            if let failure = state.failure { throw failure }
            return try body(stream)
        }
    }

    /// Waits for an operation with the main loop locked; an operation that could not be sent, was
    /// cancelled or got no answer in time means the stream or the server is gone.
    private func complete(_ operation: OpaquePointer?) throws(PulseAudioError) {
        guard let operation else { throw currentFailure() }
        guard loop.wait(for: operation, atMost: Self.answerTimeout, context: context) else {
            if let failure = state.failure { throw failure }
            let error = PulseAudioError.connectionLost(
                address: state.address, reason: "no answer within \(Self.answerTimeout.secondsText) seconds")
            state.record(error)
            throw error
        }
    }

    /// The failure recorded, or one made of libpulse's last error.
    private func currentFailure() -> PulseAudioError {
        if let failure = state.failure { return failure }
        let error =
            pa_context_get_state(context) == PA_CONTEXT_READY
            ? PulseAudioError.streamFailed(address: state.address, reason: PulseAudioStreamState.reason(context))
            : PulseAudioError.connectionLost(address: state.address, reason: PulseAudioStreamState.reason(context))
        state.record(error)
        return error
    }

    private static func latency(of stream: OpaquePointer) -> pa_usec_t? {
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &usec, &negative) == 0 else { return nil }
        // Negative only for recording streams (a monitor ahead of its sink); not here.
        return negative != 0 ? 0 : usec
    }
}

extension Duration {
    /// Seconds for messages: "2", "1.5".
    fileprivate var secondsText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }
}
