internal import CEBUR128
internal import LibraryLoader

#if canImport(Glibc)
    import Glibc
#endif

/// EBU R128 / ITU-R BS.1770-4 integrated loudness, and true peak when asked, of interleaved
/// stereo audio, measured by libebur128.
///
/// A reference type: it owns libebur128's state. Its cost is a few percent of a render, and
/// true peak (4× oversampling) several times that: ``LoudnessMeterThread`` keeps it off the
/// thread that renders.
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    public let measuresTruePeak: Bool
    private let sampleRate: Int
    private var frames = 0

    /// Nil when libebur128 cannot make its state (out of memory, a rate it refuses) or cannot be
    /// opened (``loadLibrary()`` says why).
    public init?(sampleRate: Int, measuresTruePeak: Bool) {
        guard Self.loadLibrary() == nil else { return nil }
        let mode = measuresTruePeak ? EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_I.rawValue
        guard sampleRate > 0, let state = ebur128_init(2, UInt(sampleRate), Int32(mode)) else { return nil }
        self.state = state
        self.measuresTruePeak = measuresTruePeak
        self.sampleRate = sampleRate
    }

    /// Nil once libebur128, opened at its first use (LibraryLoader), is loaded; otherwise why not.
    public static func loadLibrary() -> String? {
        smfplay_load_libebur128().map { "\(String(cString: $0)) (Debian's libebur128-1 measures loudness)" }
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Takes interleaved stereo samples.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count >= 2 else { return }
        _ = ebur128_add_frames_float(state, base, samples.count / 2)
        frames += samples.count / 2
    }

    /// What was measured so far; nil before any audio passed the gate (silence has no loudness).
    public var measurement: Loudness? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == EBUR128_SUCCESS.rawValue, integrated.isFinite else { return nil }
        let seconds = Double(frames) / Double(sampleRate)
        guard measuresTruePeak else { return Loudness(integratedLUFS: integrated, seconds: seconds) }
        var peak = 0.0
        for channel: UInt32 in 0..<2 {
            var channelPeak = 0.0
            guard ebur128_true_peak(state, channel, &channelPeak) == EBUR128_SUCCESS.rawValue else { return nil }
            peak = max(peak, channelPeak)
        }
        return Loudness(integratedLUFS: integrated, truePeakDBTP: peak > 0 ? Loudness.decibels(ofGain: peak) : nil, seconds: seconds)
    }
}
