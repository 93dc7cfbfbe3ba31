/// Where a `PulseAudioSink`'s stream is, counted in frames of the render closure's output: frame
/// 0 is the first frame it produced, and each call adds the frames it was asked for.
///
/// A player that renders a song from a frame `s` (a seek) at stream frame `w` maps a heard stream
/// frame `h ≥ w` to song frame `s + (h - w)`. The render closure is called exactly once for each
/// frame counted here, so the player can count `w` itself, or read `writtenFrames` inside
/// `PulseAudioSink.flush(_:)`'s closure.
public struct PulseAudioPlaybackPosition: Hashable, Sendable {
    /// Frames the render closure has produced and the sink has handed to the server.
    public var writtenFrames: Int64
    /// The frame reaching the listener now: `writtenFrames` less the stream's latency in frames.
    /// It never goes back, stands still while paused, and after a flush starts from the first frame
    /// written after it (the frames dropped are never heard).
    public var heardFrame: Int64
    /// How long a frame written now takes to be heard: the audio buffered in the server and the
    /// sink's own delay, as libpulse measures it (`pa_stream_get_latency`).
    public var latency: Duration
    public var sampleRate: Int

    public init(writtenFrames: Int64, heardFrame: Int64, latency: Duration, sampleRate: Int) {
        self.writtenFrames = writtenFrames
        self.heardFrame = heardFrame
        self.latency = latency
        self.sampleRate = sampleRate
    }

    /// Frames produced but not heard yet.
    public var bufferedFrames: Int64 { writtenFrames - heardFrame }

    /// `heardFrame` in seconds of stream time.
    public var heardSeconds: Double { Double(heardFrame) / Double(sampleRate) }
}
