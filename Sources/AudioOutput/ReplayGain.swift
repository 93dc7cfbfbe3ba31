/// How far a player should turn a file up or down to play it at ReplayGain 2.0's reference
/// loudness, −18 LUFS, and how loud its peaks are: what the writer stores as the file's
/// `REPLAYGAIN_*` tags (``AudioFileWriter/finish(replayGain:)``).
public struct ReplayGain: Hashable, Sendable {
    /// The track's gain, in dB: −18 LUFS less its integrated loudness (EBU R128 / ITU-R BS.1770).
    public var trackGain: Double
    /// The track's peak, as a linear amplitude (1 is full scale).
    public var trackPeak: Double
    /// The album's (its folder's) gain and peak, when the render measured one.
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double, trackPeak: Double, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    /// The tags as ReplayGain 2.0 writes them: `REPLAYGAIN_TRACK_GAIN` "-3.21 dB",
    /// `REPLAYGAIN_TRACK_PEAK` "0.912345", and the album's when there is one.
    var replayGainProperties: [(name: String, value: String)] {
        var properties = [("REPLAYGAIN_TRACK_GAIN", Self.decibels(trackGain)), ("REPLAYGAIN_TRACK_PEAK", Self.amplitude(trackPeak))]
        if let albumGain { properties.append(("REPLAYGAIN_ALBUM_GAIN", Self.decibels(albumGain))) }
        if let albumPeak { properties.append(("REPLAYGAIN_ALBUM_PEAK", Self.amplitude(albumPeak))) }
        return properties
    }

    private static func decibels(_ gain: Double) -> String {
        formatted(gain, decimals: 2) + " dB"
    }

    private static func amplitude(_ peak: Double) -> String {
        formatted(peak, decimals: 6)
    }

    /// `value` with `decimals` digits after the point, without Foundation's `String(format:)`
    /// (AudioOutput imports no Foundation): "-3.21", "0.912345".
    private static func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let units = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(units % scale)
        let padded = String(repeating: "0", count: decimals - fraction.count) + fraction
        return (value < 0 && units != 0 ? "-" : "") + "\(units / scale).\(padded)"
    }
}
