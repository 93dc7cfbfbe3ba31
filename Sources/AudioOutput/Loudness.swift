#if canImport(Glibc)
    import Glibc
#endif

/// How loud a song is, as EBU R128 measures it.
public struct Loudness: Hashable, Sendable {
    /// Integrated loudness (ITU-R BS.1770-4, gated), in LUFS.
    public var integratedLUFS: Double
    /// The highest true peak (4× oversampled) of either channel, in dBTP.
    public var truePeakDBTP: Double

    public init(integratedLUFS: Double, truePeakDBTP: Double) {
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
    }

    /// The same audio scaled by `gain` (linear).
    public func scaled(by gain: Float) -> Loudness {
        let decibels = 20 * log10(Double(gain))
        return Loudness(integratedLUFS: integratedLUFS + decibels, truePeakDBTP: truePeakDBTP + decibels)
    }
}
