/// How much a lossy encoder may leave out, or how hard FLAC works: `render --quality`, from 0 (the
/// smallest file) to 10 (the best sound, the largest file), as oggenc's `-q` counts.
///
/// Each encoder gets libsndfile's compression level, 1 − quality / 10 (`SFC_SET_COMPRESSION_LEVEL`,
/// 0 the least compressed), which it reads its own way (libsndfile 1.2):
/// - Ogg Vorbis: libvorbis's quality, quality / 10: oggenc's `-q`, the same number.
/// - MP3: LAME's variable bit rate `-V`, 10 − quality (V0 the best).
/// - Opus: a bit rate of 6 + 25 × quality kbit/s a channel (256 at 10), variable.
/// - FLAC: lossless at any quality; the compression level, round(8 − 0.8 × quality): 10 is
///   level 0 (the largest file, the quickest), 0 is level 8.
public struct EncodingQuality: Hashable, Sendable {
    /// From 0 to 10; fractions too (`6.5`).
    public let value: Double

    public static let range = 0.0...10.0

    /// Nil when `value` is outside ``range``.
    public init?(_ value: Double) {
        guard Self.range.contains(value) else { return nil }
        self.value = value
    }

    /// libsndfile's compression level: 0 the best quality, 1 the smallest file.
    var compressionLevel: Double { 1 - value / 10 }
}
