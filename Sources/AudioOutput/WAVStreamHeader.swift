/// The header of a WAV stream whose length is not known when it starts: its RIFF and data chunk
/// sizes are 0xFFFFFFFF, "as long as the stream goes", which sox, ffmpeg and libsndfile read
/// to the end of the data.
struct WAVStreamHeader {
    let encoding: SampleEncoding
    let sampleRate: Int
    let channels: Int

    private static let unknownSize: UInt32 = 0xFFFF_FFFF

    var bytes: [UInt8] {
        let bytesPerSample = encoding.bitsPerSample / 8
        let blockAlign = channels * bytesPerSample
        // WAVE_FORMAT_IEEE_FLOAT is not PCM: its fmt chunk carries the (empty) extension size too.
        let isFloat = encoding.isFloatingPoint
        var format: [UInt8] = []
        format += Self.little16(isFloat ? 3 : 1)
        format += Self.little16(channels)
        format += Self.little32(UInt32(sampleRate))
        format += Self.little32(UInt32(sampleRate * blockAlign))
        format += Self.little16(blockAlign)
        format += Self.little16(encoding.bitsPerSample)
        if isFloat { format += Self.little16(0) }
        return Array("RIFF".utf8) + Self.little32(Self.unknownSize) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + Self.little32(UInt32(format.count)) + format
            + Array("data".utf8) + Self.little32(Self.unknownSize)
    }

    private static func little16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    private static func little32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) }
    }
}
