/// How far a player should turn a file up or down to play it at ReplayGain 2.0's reference
/// loudness, −18 LUFS, and how loud its peaks are: what the writer stores as the file's
/// `REPLAYGAIN_*` tags (``AudioFileWriter/finish(replayGain:)``), or as Opus's `R128_*` ones.
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

    /// The tags Opus has in their place (RFC 7845, 5.2.1, which tells writers to leave
    /// `REPLAYGAIN_*` out): `R128_TRACK_GAIN` and `R128_ALBUM_GAIN`, integers in 1/256 dB
    /// (Q7.8) relative to EBU R128's −23 LUFS, 5 dB below ReplayGain's reference. No peaks.
    var r128Properties: [(name: String, value: String)] {
        var properties = [("R128_TRACK_GAIN", Self.q78(trackGain - 5))]
        if let albumGain { properties.append(("R128_ALBUM_GAIN", Self.q78(albumGain - 5))) }
        return properties
    }

    private static func decibels(_ gain: Double) -> String {
        formatted(gain, decimals: 2) + " dB"
    }

    private static func amplitude(_ peak: Double) -> String {
        formatted(peak, decimals: 6)
    }

    /// A signed 16-bit count of 1/256 dB, as RFC 7845 stores it: held within its range.
    private static func q78(_ gain: Double) -> String {
        String(Int16(clamping: Int((gain * 256).rounded())))
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
