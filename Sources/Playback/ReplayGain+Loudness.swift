import AudioOutput
import Loudness

extension ReplayGain {
    /// ReplayGain 2.0's reference loudness.
    static let referenceLUFS = -18.0

    /// A written file's ReplayGain values, from its measurement: the gain to the reference, and its
    /// true peak as the peak when it was measured, else its highest sample, `samplePeak` (ReplayGain
    /// 2.0 allows either; the true peak is the higher).
    init(written: Loudness, samplePeak: Float) {
        self.init(
            trackGain: Self.referenceLUFS - written.integratedLUFS,
            trackPeak: written.truePeakDBTP.map { Loudness.gain(ofDecibels: $0) } ?? Double(samplePeak))
    }
}
