import CLhasa
import LibraryLoader

/// liblhasa's decoder of an LZH method libarchive has none for (LHarc 1's `-lh1-` above all, and
/// LHA's `-lh4-`, LArc's `-lzs-` and `-lz5-`), over one member's compressed bytes. Only its
/// decoders are used: its archive reader parts a Shift-JIS name at a 0x5C byte, so libarchive
/// lists the members and reads their names. liblhasa is opened at the first member that needs it.
///
/// A reference type: it owns liblhasa's decoder, which reads the bytes through ``LZHPackedInput``.
final class LhasaDecoder {
    private let decoder: OpaquePointer
    private let input: LZHPackedInput
    private let header: LZHHeader
    private static let readBlock = 64 * 1024

    /// The decompressed bytes of the member `header` describes, checked against the header's size
    /// and CRC; nil when they grow past `limit` bytes, where decoding stops.
    static func decode(_ header: LZHHeader, from source: ArchiveSource, limit: Int) throws(LZHDecodingError) -> [UInt8]? {
        try LhasaDecoder(header, source: source).read(limit: limit)
    }

    private init(_ header: LZHHeader, source: ArchiveSource) throws(LZHDecodingError) {
        if let reason = smfplay_load_liblhasa() { throw .libraryMissing(method: header.method, reason: String(cString: reason)) }
        var name = Array(header.method.utf8CString)
        guard let type = name.withUnsafeMutableBufferPointer({ lha_decoder_for_name($0.baseAddress) }) else {
            throw .unknownMethod(header.method)
        }
        let input = LZHPackedInput(source, from: header.dataOffset, count: header.compressedSize)
        // The decoder stops at the size the header gives; a failed allocation is the only other way to get none.
        let context = Unmanaged.passUnretained(input).toOpaque()
        guard let decoder = lha_decoder_new(type, Self.fill, context, Int(clamping: header.originalSize)) else {
            throw .unknownMethod(header.method)
        }
        self.decoder = decoder
        self.input = input
        self.header = header
    }

    deinit {
        lha_decoder_free(decoder)
    }

    /// liblhasa's callback for more compressed bytes: the input is the decoder's, which outlives it.
    private static let fill: LHADecoderCallback = { buffer, count, context in
        guard let buffer, let context else { return 0 }
        return Unmanaged<LZHPackedInput>.fromOpaque(context).takeUnretainedValue().fill(buffer, count: count)
    }

    private func read(limit: Int) throws(LZHDecodingError) -> [UInt8]? {
        var data: [UInt8] = []
        var block = [UInt8](repeating: 0, count: Self.readBlock)
        while true {
            let count = block.withUnsafeMutableBufferPointer { lha_decoder_read(decoder, $0.baseAddress, $0.count) }
            guard !input.failed else { throw .unreadable }
            if count == 0 { break }
            guard data.count + count <= limit else { return nil }
            data += block[..<count]
        }
        // liblhasa stops at the first code it cannot read, without saying so: the size and CRC tell.
        guard Int64(data.count) == header.originalSize else {
            throw .endsEarly(method: header.method, length: data.count, expected: header.originalSize)
        }
        if let crc = header.crc, lha_decoder_get_crc(decoder) != crc { throw .crcMismatch(method: header.method) }
        return data
    }
}
