/// What the player needs from a real-time audio output. The sink calls the
/// render closure it was made with, on its own thread, for every buffer; it
/// opens paused, and plays once resumed.
public protocol PlaybackSink: AnyObject {
    /// Stops the sound at once, keeping what is buffered (PulseAudio: cork).
    func pause()
    func resume()
    /// Drops what is buffered, so that new audio is heard next. `switchSource`
    /// runs where no buffer can be rendered: every buffer after it has the new audio.
    func flush(_ switchSource: () -> Void)
    /// Waits until what is buffered has been heard, at most `seconds`.
    func drain(atMostSeconds seconds: Double)
    func close()
    /// How long a frame rendered now takes to be heard.
    var latencySeconds: Double { get }
    /// Times the output ran dry.
    var underrunCount: Int { get }
    /// Why the thread that renders runs at normal priority (behind every busy process) when it
    /// does; nil when it runs in real time.
    var normalPriorityReason: String? { get }
    /// Why the output stopped working, if it did (the server went away, say).
    var failure: (any Error)? { get }
}
