import CPulseAudio
import Synchronization

/// The side of a `PulseAudioSink` that libpulse's callbacks work on, on the main loop's thread:
/// the render closure, the frame and underrun counters, and the failure, if any.
///
/// Everything here is touched with the main loop's lock held (callbacks hold it; the sink takes
/// it), except the atomics and the failure, which the sink's readers poll without the lock.
final class PulseAudioStreamState: @unchecked Sendable {
    // @unchecked: its `var`s are touched only with the main loop's lock held; the counters and
    // the failure, read without it, are atomics and a mutex.
    static let channels = 2
    static let bytesPerFrame = channels * MemoryLayout<Float>.size

    private let render: (UnsafeMutablePointer<Float>, Int) -> Void
    private let loop: PulseAudioMainLoop
    private let onFailure: (@Sendable (PulseAudioError) -> Void)?

    /// Frames handed to the server since the stream began: everything the render closure produced.
    let writtenFrames = Atomic<Int64>(0)
    /// Underflows the server reported while the stream was meant to be playing.
    let underruns = Atomic<Int>(0)
    /// The stream's latency in microseconds as last measured by the write path (0 before it
    /// was): the interface reads it without taking the main loop's lock, which the audio thread
    /// holds while it renders (waiting for it woke the interface thread in a spinning kernel lock).
    let measuredLatency = Atomic<UInt64>(0)
    private let firstFailure = Mutex<PulseAudioError?>(nil)

    /// The server, for messages: as the user gave it, or as libpulse found it.
    var address: String
    /// The stream, once created; nil again once closed.
    var stream: OpaquePointer?
    /// False from a drain (the server must see the buffer run dry) to the next resume, and once
    /// closing: the write callback then writes nothing.
    var isWriting = true
    /// Set once the context is ready: a failure before that is no server rather than a lost one.
    var isConnected = false
    /// Set once the stream is ready: a failure before that is the connection's own error.
    var isStreaming = false
    /// While closing, the states libpulse reports are the ones asked for, not failures.
    var isClosing = false
    /// Underflows at or before this read index (in bytes, libpulse's count) come from a flush.
    var underflowFloor: Int64 = -1

    init(
        address: String, loop: PulseAudioMainLoop, onFailure: (@Sendable (PulseAudioError) -> Void)?,
        render: @escaping (UnsafeMutablePointer<Float>, Int) -> Void
    ) {
        self.address = address
        self.loop = loop
        self.onFailure = onFailure
        self.render = render
    }

    /// The pointer libpulse hands back to the callbacks. The sink keeps this object alive until
    /// the callbacks are unset and the main loop has stopped.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ user: UnsafeMutableRawPointer?) -> PulseAudioStreamState {
        Unmanaged<PulseAudioStreamState>.fromOpaque(user!).takeUnretainedValue()
    }

    var failure: PulseAudioError? { firstFailure.withLock { $0 } }

    /// Keeps the first failure (the context's, which libpulse reports before its streams') and
    /// tells `onFailure` about it once.
    func record(_ error: PulseAudioError) {
        let isFirst = firstFailure.withLock { failure in
            guard failure == nil else { return false }
            failure = error
            return true
        }
        if isFirst { onFailure?(error) }
    }

    // MARK: The write path: real-time

    /// Asks the render closure for `requested` bytes, written straight into libpulse's own memory
    /// blocks (`pa_stream_begin_write`), so nothing is allocated, copied or locked here. Runs on
    /// the main loop's thread with its lock held.
    func fill(_ stream: OpaquePointer, bytes requested: Int) {
        guard isWriting else { return }
        var remaining = requested - requested % Self.bytesPerFrame
        while remaining > 0 {
            var data: UnsafeMutableRawPointer?
            var size = remaining
            // libpulse may offer less than asked (one memory block at most): loop until done.
            guard pa_stream_begin_write(stream, &data, &size) == 0, let data else { return }
            size -= size % Self.bytesPerFrame
            guard size > 0 else {
                pa_stream_cancel_write(stream)
                return
            }
            let frames = size / Self.bytesPerFrame
            render(data.bindMemory(to: Float.self, capacity: frames * Self.channels), frames)
            // A failed write means the stream is failing; its state callback reports why.
            guard pa_stream_write(stream, data, size, nil, 0, PA_SEEK_RELATIVE) == 0 else { return }
            writtenFrames.add(Int64(frames), ordering: .relaxed)
            remaining -= size
        }
        // From the timing data libpulse keeps: no request to the server, no allocation.
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &latency, &negative) == 0, negative == 0, latency > 0 {
            measuredLatency.store(latency, ordering: .relaxed)
        }
    }

    /// Writing again after a drain: what the server asked for meanwhile is still owed, and it will
    /// not ask twice. Runs on the main loop's thread (see `scheduleRefill`).
    private func refill() {
        guard let stream, isWriting, !isClosing else { return }
        let writable = pa_stream_writable_size(stream)
        // (size_t) -1, an error, reads as -1.
        if writable > 0 { fill(stream, bytes: writable) }
    }

    /// Has the main loop's thread call `refill()` soon, so that the render closure keeps running
    /// on that thread only. Called with the lock held.
    func scheduleRefill() {
        pa_mainloop_api_once(loop.api, { _, user in PulseAudioStreamState.from(user).refill() }, userData)
    }

    // MARK: Callbacks

    static let writeCallback: pa_stream_request_cb_t = { stream, bytes, user in
        guard let stream else { return }
        from(user).fill(stream, bytes: bytes)
    }

    /// Counts the underruns of a stream that should be playing. Not counted: the buffer running
    /// dry in a drain, which is what a drain is for, nor the empty buffer a flush leaves until it
    /// is refilled (an underflow at or before the read index where the flush left the stream).
    static let underflowCallback: pa_stream_notify_cb_t = { stream, user in
        let state = from(user)
        guard state.isWriting, let stream else { return }
        let index = pa_stream_get_underflow_index(stream)
        if index >= 0, index <= state.underflowFloor { return }
        state.underruns.add(1, ordering: .relaxed)
    }

    static let contextStateCallback: pa_context_notify_cb_t = { context, user in
        guard let context else { return }
        let state = from(user)
        let contextState = pa_context_get_state(context)
        if state.isConnected, !state.isClosing, contextState == PA_CONTEXT_FAILED || contextState == PA_CONTEXT_TERMINATED {
            state.record(.connectionLost(address: state.address, reason: reason(context)))
        }
        // Whoever waits for a state change (connecting, closing) looks again.
        state.loop.signal()
    }

    static let streamStateCallback: pa_stream_notify_cb_t = { stream, user in
        guard let stream else { return }
        let state = from(user)
        let streamState = pa_stream_get_state(stream)
        if state.isStreaming, !state.isClosing, streamState == PA_STREAM_FAILED || streamState == PA_STREAM_TERMINATED {
            let context = pa_stream_get_context(stream)!
            if pa_context_get_state(context) == PA_CONTEXT_READY {
                state.record(.streamFailed(address: state.address, reason: reason(context)))
            } else {
                state.record(.connectionLost(address: state.address, reason: reason(context)))
            }
        }
        state.loop.signal()
    }

    /// Wakes whoever waits for an operation: the user data is the main loop.
    static let signalLoop: pa_stream_success_cb_t = { _, _, user in
        pa_threaded_mainloop_signal(OpaquePointer(user), 0)
    }

    /// libpulse's words for the context's last error, in the lower case of the rest of a message.
    static func reason(_ context: OpaquePointer) -> String {
        let text = String(cString: pa_strerror(pa_context_errno(context)))
        guard let first = text.first else { return "unknown error" }
        return first.lowercased() + text.dropFirst()
    }
}
