/// A ZIP archive built in memory, for tests of code that reads archives.
///
/// Names are raw bytes because that is what old archives hold: a ZIP made on a Japanese Windows
/// stores Shift-JIS names without saying so, while a newer one sets general-purpose bit 11 and
/// stores UTF-8. A test can write either, or both in one archive, byte for byte.
///
/// Members are stored (method 0), never compressed, and the writer keeps to what every reader
/// accepts: one disk, no ZIP64, no data descriptors, no extra fields, no comments. Every member has
/// the same fixed time so that the same members always give the same bytes.
///
/// ```swift
/// var zip = ZIPWriter()
/// zip.add(name: "Songs/", data: [])
/// zip.add(name: "Songs/song.mid", data: song)
/// zip.add(ZIPWriter.Member(name: [0x8B, 0xC8, 0x2E, 0x6D, 0x69, 0x64], data: song))  // 曲.mid in Shift-JIS
/// let bytes = zip.encode()
/// ```
public struct ZIPWriter {
    /// One file or folder of the archive.
    public struct Member {
        /// The name as stored, in whatever encoding; folders are separated by `/`, and a folder's
        /// own name ends with `/`.
        public var name: [UInt8]
        /// The bytes stored; a folder has none.
        public var data: [UInt8]
        /// Sets general-purpose bit 11, which tells readers that `name` is UTF-8. Without it a
        /// reader has to guess: CP437 by the specification, Shift-JIS in practice for Japanese archives.
        public var namesAreUTF8: Bool
        /// Sets general-purpose bit 0 ("encrypted") and stores `data` as given, encrypted with
        /// nothing: enough for a reader to see an encrypted member and refuse it, which is what
        /// such a test is about. As in traditional PKWARE encryption, `data` starts with the 12-byte
        /// encryption header, which the compressed size counts and the uncompressed size and the
        /// CRC do not (unzip checks the sizes against each other so).
        public var isEncrypted: Bool

        public init(name: [UInt8], data: [UInt8] = [], namesAreUTF8: Bool = false, isEncrypted: Bool = false) {
            self.name = name
            self.data = data
            self.namesAreUTF8 = namesAreUTF8
            self.isEncrypted = isEncrypted
        }

        /// Folders are the members whose name ends with `/`: that is how ZIP tells them apart.
        public var isFolder: Bool { name.last == UInt8(ascii: "/") }
    }

    private var members: [Member] = []

    public init() {}

    public mutating func add(_ member: Member) {
        precondition(!member.isFolder || member.data.isEmpty, "a ZIP folder holds no data")
        precondition(!member.isEncrypted || member.data.count >= Self.encryptionHeaderSize, "encrypted data starts with a 12-byte header")
        members.append(member)
    }

    /// A member whose name is stored as UTF-8, with bit 11 set to say so.
    public mutating func add(name: String, data: [UInt8]) {
        add(Member(name: Array(name.utf8), data: data, namesAreUTF8: true))
    }

    /// The whole archive: each member's local header and data, then the central directory, then
    /// the end-of-central-directory record that readers look for first.
    public func encode() -> [UInt8] {
        var archive: [UInt8] = []
        var centralDirectory: [UInt8] = []
        for member in members {
            let localHeaderOffset = archive.count
            let fields = Self.commonFields(of: member)
            Self.append(UInt32(0x0403_4B50), to: &archive)
            archive += fields
            Self.append(UInt16(0), to: &archive) // extra field length
            archive += member.name + member.data

            Self.append(UInt32(0x0201_4B50), to: &centralDirectory)
            Self.append(Self.versionMadeByMSDOS, to: &centralDirectory)
            centralDirectory += fields
            Self.append(UInt16(0), to: &centralDirectory) // extra field length
            Self.append(UInt16(0), to: &centralDirectory) // comment length
            Self.append(UInt16(0), to: &centralDirectory) // disk number
            Self.append(UInt16(0), to: &centralDirectory) // internal attributes
            Self.append(UInt32(member.isFolder ? 0x10 : 0x20), to: &centralDirectory) // MS-DOS: directory or archive
            Self.append(UInt32(localHeaderOffset), to: &centralDirectory)
            centralDirectory += member.name
        }
        let centralDirectoryOffset = archive.count
        archive += centralDirectory
        Self.append(UInt32(0x0605_4B50), to: &archive)
        Self.append(UInt16(0), to: &archive) // this disk
        Self.append(UInt16(0), to: &archive) // disk of the central directory
        Self.append(UInt16(members.count), to: &archive) // entries on this disk
        Self.append(UInt16(members.count), to: &archive) // entries in all
        Self.append(UInt32(centralDirectory.count), to: &archive)
        Self.append(UInt32(centralDirectoryOffset), to: &archive)
        Self.append(UInt16(0), to: &archive) // comment length
        return archive
    }

    /// "Made by" MS-DOS (high byte 0), ZIP 2.0: the external attributes are then MS-DOS ones,
    /// which is what Windows archivers write. (Debian's unzip 6.0 then converts every name from an
    /// OEM code page, bit 11 or not, and shows UTF-8 names garbled; libarchive honours bit 11.)
    private static let versionMadeByMSDOS: UInt16 = 20
    /// ZIP 1.0 is enough to extract a stored member; 2.0 for a folder, as the specification asks.
    private static let versionNeededForFile: UInt16 = 10
    private static let versionNeededForFolder: UInt16 = 20
    private static let encryptionHeaderSize = 12
    /// 1998-07-04 12:00:00 as MS-DOS time and date: fixed, so that an archive's bytes never vary.
    private static let fixedTime: UInt16 = 0x6000
    private static let fixedDate: UInt16 = 0x24E4

    /// The fields that a local header and a central directory entry share, from "version needed"
    /// through the name length.
    private static func commonFields(of member: Member) -> [UInt8] {
        var fields: [UInt8] = []
        var flags: UInt16 = 0
        if member.isEncrypted { flags |= 1 << 0 }
        if member.namesAreUTF8 { flags |= 1 << 11 }
        append(member.isFolder ? versionNeededForFolder : versionNeededForFile, to: &fields)
        append(flags, to: &fields)
        append(UInt16(0), to: &fields) // method: stored
        append(fixedTime, to: &fields)
        append(fixedDate, to: &fields)
        let plain = member.isEncrypted ? Array(member.data.dropFirst(encryptionHeaderSize)) : member.data
        append(crc32(plain), to: &fields)
        append(UInt32(member.data.count), to: &fields) // compressed size
        append(UInt32(plain.count), to: &fields) // uncompressed size
        append(UInt16(member.name.count), to: &fields)
        return fields
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// CRC-32 as ZIP computes it (ISO-HDLC: polynomial 0x04C11DB7 reflected, that is 0xEDB88320,
    /// starting from and finishing with all ones).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crc32Table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC of each byte value, so that `crc32` takes one step per byte instead of eight.
    private static let crc32Table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }
}
