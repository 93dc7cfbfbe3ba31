/// An LZH member's header as the archive stores it, read for what libarchive does not say: the
/// member's method, and where its compressed bytes lie. libarchive lists every member and says
/// where its header starts; this reads the header's own size fields from there (levels 0 to 3, as
/// LHA's documentation lays them out and libarchive reads them), so that a member of a method
/// libarchive has no decoder for can be decoded from its bytes by another library.
struct LZHHeader {
    /// The method as the header names it: `-lh1-`, `-lh5-`…
    let method: String
    /// Where the compressed bytes start in the archive, and how many there are.
    let dataOffset: Int64
    let compressedSize: Int64
    /// The size of the member once decompressed, as the header says.
    let originalSize: Int64
    /// The CRC-16 of the decompressed bytes; nil where the header has none (LArc's level-0 ones).
    let crc: UInt16?

    /// The methods libarchive decodes (stored, LHA 2's and later, and folders): any other is
    /// decoded by liblhasa, or said to be decoded by neither.
    static let libArchiveMethods: Set<String> = ["-lh0-", "-lh5-", "-lh6-", "-lh7-", "-lz4-", "-lhd-"]

    /// Where the member's compressed bytes end in the archive.
    var dataEnd: Int64 { dataOffset + compressedSize }

    /// Level 1's extended headers after the base header: more than this, and the header is not
    /// read here (LHA writes two or three; libarchive then reads the member as it would).
    private static let extendedHeaderLimit = 256

    /// The header at `position` in `source` when its method is one libarchive does not decode;
    /// nil when libarchive decodes it (nothing more is read: the common case costs one read), or
    /// when no header of a known level is there whole.
    init?(undecodedAt position: Int64, in source: ArchiveSource) {
        // A level-0 or level-1 base header is at most 257 bytes: its size byte counts from the method on.
        guard let base = source.bytes(upTo: 257, at: position), base.count >= 22 else { return nil }
        let methodBytes = base[2..<7]
        guard methodBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        method = String(decoding: methodBytes, as: UTF8.self)
        guard !Self.libArchiveMethods.contains(method) else { return nil }
        originalSize = Int64(Self.uint32(base, at: 11))
        let packedSize = Int64(Self.uint32(base, at: 7))
        switch base[20] {
        case 0, 1:
            let size = Int(base[0]) + 2
            let crcOffset = 22 + Int(base[21])
            guard base.count >= size, size >= crcOffset else { return nil }
            crc = crcOffset + 2 <= size ? Self.uint16(base, at: crcOffset) : nil
            guard base[20] == 1 else {
                (dataOffset, compressedSize) = (position + Int64(size), packedSize)
                return
            }
            // The CRC, the OS ID, then the size of the first extended header end the base header.
            guard size >= crcOffset + 5,
                let extended = Self.extendedHeaders(after: position + Int64(size), first: Self.uint16(base, at: size - 2), in: source),
                extended <= packedSize
            else { return nil }
            // Level 1's packed size counts its extended headers, which LHarc could then skip as data.
            (dataOffset, compressedSize) = (position + Int64(size) + extended, packedSize - extended)
        case 2:
            let size = Int64(Self.uint16(base, at: 0))
            guard base.count >= 26, size >= 26 else { return nil }
            (dataOffset, compressedSize, crc) = (position + size, packedSize, Self.uint16(base, at: 21))
        case 3:
            // A word size (4), then the header's size as a 32-bit field after the OS ID.
            guard base.count >= 32, Self.uint16(base, at: 0) == 4 else { return nil }
            let size = Int64(Self.uint32(base, at: 24))
            guard size >= 32 else { return nil }
            (dataOffset, compressedSize, crc) = (position + size, packedSize, Self.uint16(base, at: 21))
        default:
            return nil
        }
    }

    /// The bytes of level 1's chain of extended headers from `offset`, the first `first` bytes
    /// long: each one's size counts its type, its data and the size of the next, 0 after the last.
    private static func extendedHeaders(after offset: Int64, first: UInt16, in source: ArchiveSource) -> Int64? {
        var total: Int64 = 0
        var next = Int64(first)
        var count = 0
        while next != 0 {
            count += 1
            guard next >= 3, count <= extendedHeaderLimit, let field = source.bytes(upTo: 2, at: offset + total + next - 2), field.count == 2
            else { return nil }
            total += next
            next = Int64(uint16(field, at: 0))
        }
        return total
    }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(uint16(bytes, at: offset)) | UInt32(uint16(bytes, at: offset + 2)) << 16
    }
}
