import Loudness
import Synthesis

/// What one render produced.
public struct RenderResult: Hashable, Sendable {
    /// The song's length, to its last event.
    public var songSeconds: Double
    /// The audio's length: the song and its tail.
    public var audioSeconds: Double
    /// The highest sample before normalization (1.0 is full scale).
    public var peak: Float
    /// The gain applied by normalization (to a peak or a loudness), or 1.
    public var normalizationGain: Float
    /// How far the limiter turned the loudest moment down, in dB; 0 when it did nothing (or was off).
    public var limiterReductionDecibels: Double = 0
    /// What was written, measured (EBU R128 loudness and true peak); nil for silence, and for a
    /// stream, which is not measured.
    public var loudness: Loudness?
    /// Presets the song asked for that no SoundFont has, and what played instead.
    public var substitutions: [PresetSubstitution] = []
    /// Why the song's loop marks make no loop, when loops were asked for (it was rendered as written).
    public var loopProblem: String?
    /// Why the song's own sound bank was not heard, when it could not be loaded.
    public var songBankProblem: SynthesisError?
    /// The synthesizers the song played on: 1, or each part's when it was split across cores.
    public var partCount = 1
}
