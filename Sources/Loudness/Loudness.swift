#if canImport(Glibc)
    import Glibc
#endif

/// How loud some audio is, as EBU R128 measures it (ITU-R BS.1770-4).
public struct Loudness: Hashable, Sendable {
    /// Integrated (gated) loudness, in LUFS.
    public var integratedLUFS: Double
    /// The highest true peak of either channel (4× oversampled), in dBTP; nil when it was not
    /// measured.
    public var truePeakDBTP: Double?

    public init(integratedLUFS: Double, truePeakDBTP: Double? = nil) {
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
    }

    /// The same audio with `decibels` of gain.
    public func adjusted(byDecibels decibels: Double) -> Loudness {
        Loudness(integratedLUFS: integratedLUFS + decibels, truePeakDBTP: truePeakDBTP.map { $0 + decibels })
    }

    /// A linear gain in decibels.
    public static func decibels(ofGain gain: Double) -> Double {
        20 * log10(gain)
    }

    /// Decibels as a linear gain.
    public static func gain(ofDecibels decibels: Double) -> Double {
        pow(10, decibels / 20)
    }
}
