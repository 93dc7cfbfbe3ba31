/// The loudness songs are brought to, and how the listener's own gain stays a trim on top of it.
///
/// A song is measured as its settings render it; the normalizing gain brings the loudness it would
/// have at `referenceGain` (the default gain) to `integratedLUFS`. A song rendered at another gain
/// (`--gain`, its folder's `gain`) is as much louder or quieter than the target: twice the
/// reference gain, 6 dB above it.
public struct LoudnessTarget: Hashable, Sendable {
    /// ReplayGain 2's reference level.
    public static let defaultLUFS = -18.0
    /// What a target may be: quieter than −40 LUFS most of the music would sink under the noise of
    /// a room; louder than −5 LUFS nothing is left for the peaks.
    public static let range = -40.0 ... -5.0
    public var integratedLUFS: Double
    /// The synthesizer gain at which a song is brought to the target exactly.
    public var referenceGain: Double

    public init(integratedLUFS: Double = LoudnessTarget.defaultLUFS, referenceGain: Double) {
        self.integratedLUFS = integratedLUFS
        self.referenceGain = referenceGain
    }

    /// The gain (linear) that brings a song measured at `unityLoudness` (its loudness at a
    /// synthesizer gain of 1) to the target; 1 for silence, which has no loudness. Not capped: a
    /// synthesizer has no noise floor, so whatever the meter measures (``LoudnessMeter``) is music,
    /// however quiet (the demo library's Gymnopédie, all pianissimo, is −54 LUFS at the default
    /// gain), and the limiter keeps its peaks in bounds.
    public func gain(forUnityLoudness unityLoudness: Loudness?) -> Float {
        guard let unityLoudness else { return 1 }
        let atReference = unityLoudness.integratedLUFS + Loudness.decibels(ofGain: referenceGain)
        return Float(Loudness.gain(ofDecibels: integratedLUFS - atReference))
    }
}
