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
    /// How long the audio measured lasts, in seconds: what a song weighs in its folder's loudness
    /// (``init(together:)``).
    public var seconds: Double

    public init(integratedLUFS: Double, truePeakDBTP: Double? = nil, seconds: Double) {
        self.integratedLUFS = integratedLUFS
        self.truePeakDBTP = truePeakDBTP
        self.seconds = seconds
    }

    /// The loudness of songs heard one after another, as one (a folder, ReplayGain's album): the
    /// mean of their powers, each song weighing as long as it lasts. BS.1770 would gate the songs
    /// as one recording, which needs every song's measurement at once; each song gated on its own
    /// comes close: a song a quarter of whose length is near silence weighs that quarter too much,
    /// 0.26 LU in LoudnessMeterTests. The highest true peak, when every song's is known. Nil for
    /// no songs.
    public init?(together songs: [Loudness]) {
        let seconds = songs.reduce(0) { $0 + max(0, $1.seconds) }
        guard !songs.isEmpty else { return nil }
        // Songs of no length (never measured so) count alike rather than not at all.
        let weights = seconds > 0 ? songs.map { max(0, $0.seconds) / seconds } : songs.map { _ in 1 / Double(songs.count) }
        let power = zip(songs, weights).reduce(0) { $0 + $1.1 * pow(10, $1.0.integratedLUFS / 10) }
        let peaks = songs.compactMap(\.truePeakDBTP)
        self.init(
            integratedLUFS: 10 * log10(power), truePeakDBTP: peaks.count == songs.count ? peaks.max() : nil, seconds: seconds)
    }

    /// The same audio with `decibels` of gain.
    public func adjusted(byDecibels decibels: Double) -> Loudness {
        Loudness(integratedLUFS: integratedLUFS + decibels, truePeakDBTP: truePeakDBTP.map { $0 + decibels }, seconds: seconds)
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
