import Loudness

/// What measuring a song's loudness came to (``SongRenderer/measure(_:at:options:cores:songBank:sound:loudness:cancellation:progress:)``).
public enum SongMeasurement: Sendable {
    /// Rendered and measured: its loudness at a synthesizer gain of 1 is the result's (nil for
    /// silence).
    case measured(RenderResult)
    /// Known with this sound already, at a synthesizer gain of 1: nothing was done.
    case known(Loudness)

    /// The song's loudness at a synthesizer gain of 1; nil for silence.
    public var unityLoudness: Loudness? {
        switch self {
        case .measured(let result): result.loudness
        case .known(let loudness): loudness
        }
    }
}
