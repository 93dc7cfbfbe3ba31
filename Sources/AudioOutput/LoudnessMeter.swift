import CEBUR128

#if canImport(Glibc)
    import Glibc
#endif

/// EBU R128 / ITU-R BS.1770-4 integrated loudness and true peak of stereo audio, measured by
/// libebur128 as the audio is written: the meter sees what the file gets.
///
/// A reference type: it owns libebur128's state.
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// Nil when libebur128 cannot make its state (out of memory, a rate it refuses).
    public init?(sampleRate: Int) {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(2, UInt(sampleRate), mode) else { return nil }
        self.state = state
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Takes interleaved stereo samples.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count >= 2 else { return }
        _ = ebur128_add_frames_float(state, base, samples.count / 2)
    }

    /// What was measured so far; nil before any audio gated in (silence has no loudness).
    public var measurement: Loudness? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == EBUR128_SUCCESS.rawValue, integrated.isFinite else { return nil }
        var peak = 0.0
        for channel: UInt32 in 0..<2 {
            var channelPeak = 0.0
            guard ebur128_true_peak(state, channel, &channelPeak) == EBUR128_SUCCESS.rawValue else { return nil }
            peak = max(peak, channelPeak)
        }
        return Loudness(integratedLUFS: integrated, truePeakDBTP: peak > 0 ? 20 * log10(peak) : -.infinity)
    }
}
