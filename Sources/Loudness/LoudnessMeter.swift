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
    /// The same audio raised by ``quietMusicGainDecibels``: music the standard's absolute gate
    /// (-70 LUFS) takes for silence (a piece played very softly, rendered at a low gain) is
    /// measured there, the gain taken off again. Only when the standard finds nothing: any song
    /// it measures reads as BS.1770 says.
    private var quietState: UnsafeMutablePointer<ebur128_state>?
    /// Where the raised copy is made, a block at a time: the meter allocates only when made.
    private let raised: UnsafeMutableBufferPointer<Float>
    public let measuresTruePeak: Bool
    private let sampleRate: Int
    private var frames = 0

    /// How far quiet music is raised to be measured: the gate then stands at -110 LUFS, below the
    /// last bit of a 16-bit file (-96 dBFS).
    static let quietMusicGainDecibels = 40.0

    /// Nil when libebur128 cannot make its state (out of memory, a rate it refuses) or cannot be
    /// opened (``loadLibrary()`` says why).
    public init?(sampleRate: Int, measuresTruePeak: Bool) {
        guard Self.loadLibrary() == nil else { return nil }
        let mode = measuresTruePeak ? EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_I.rawValue
        guard sampleRate > 0, let state = ebur128_init(2, UInt(sampleRate), Int32(mode)) else { return nil }
        guard let quietState = ebur128_init(2, UInt(sampleRate), Int32(EBUR128_MODE_I.rawValue)) else {
            var made: UnsafeMutablePointer<ebur128_state>? = state
            ebur128_destroy(&made)
            return nil
        }
        self.state = state
        self.quietState = quietState
        raised = .allocate(capacity: 8192)
        self.measuresTruePeak = measuresTruePeak
        self.sampleRate = sampleRate
    }

    /// Nil once libebur128, opened at its first use (LibraryLoader), is loaded; otherwise why not.
    public static func loadLibrary() -> String? {
        smfplay_load_libebur128().map { "\(String(cString: $0)) (Debian's libebur128-1 measures loudness)" }
    }

    deinit {
        ebur128_destroy(&state)
        ebur128_destroy(&quietState)
        raised.deallocate()
    }

    /// Takes interleaved stereo samples.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count >= 2 else { return }
        let frameCount = samples.count / 2
        _ = ebur128_add_frames_float(state, base, frameCount)
        let gain = Float(Loudness.gain(ofDecibels: Self.quietMusicGainDecibels))
        var start = 0
        while start < 2 * frameCount {
            let count = min(raised.count, 2 * frameCount - start)
            for index in 0..<count { raised[index] = base[start + index] * gain }
            _ = ebur128_add_frames_float(quietState, raised.baseAddress, count / 2)
            start += count
        }
        frames += frameCount
    }

    /// What was measured so far; nil before any audio passed the gate (silence has no loudness).
    public var measurement: Loudness? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == EBUR128_SUCCESS.rawValue else { return nil }
        if !integrated.isFinite {
            // Below the standard's gate: quiet music, or silence, which is below this one too.
            guard ebur128_loudness_global(quietState, &integrated) == EBUR128_SUCCESS.rawValue, integrated.isFinite else { return nil }
            integrated -= Self.quietMusicGainDecibels
        }
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
