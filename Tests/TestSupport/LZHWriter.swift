/// An LHA (.lzh) archive built in memory, for tests of code that reads the archives Japanese MIDI
/// sites offered in the 1990s and 2000s.
///
/// Paths are raw bytes, as LHA stores them (Shift-JIS on those sites, with no field that says so),
/// given with `/` between folders; the writer puts in the separator each header level uses. `/`
/// never occurs inside a Shift-JIS character, so it is safe to split on, while the level-0
/// separator `\` does occur there (表 is 0x95 0x5C): a Shift-JIS name written at level 0 comes out
/// exactly as ambiguous as it was in real archives, which is what a reader's tests need.
///
/// Members are stored uncompressed (`-lh0-`; folders `-lhd-`) or compressed as LHarc 1 did
/// (`-lh1-`, ``LH1Encoder``), each with the CRC-16 of its data, and the archive ends with the 0 byte
/// that LHA writes after the last member. Every member has the same fixed time so that the same
/// members always give the same bytes.
///
/// ```swift
/// var lzh = LZHWriter(level: .level1)
/// lzh.add(path: "Songs/", data: [])
/// lzh.add(LZHWriter.Member(path: Array("Songs/".utf8) + [0x8B, 0xC8, 0x2E, 0x6D, 0x69, 0x64], data: song))  // 曲.mid
/// let bytes = lzh.encode()
/// ```
public struct LZHWriter {
    /// How every member's header is laid out; an archiver writes one level for a whole archive.
    public enum HeaderLevel: UInt8, Sendable {
        /// LHarc's: the whole path in the name field, folders separated by `\`, and an 8-bit sum of
        /// the header's bytes. Paths are limited to about 220 bytes.
        case level0 = 0
        /// LHA 2.x's default, the usual one in 1990s Japanese archives: the file's name in the name
        /// field, its folder in extended header 0x02 with 0xFF between folders, and the 8-bit sum
        /// over the base header only.
        case level1 = 1
        /// Later LHA's: the name (extended header 0x01) and folder (0x02, 0xFF between folders)
        /// in extended headers only, and a CRC-16 of the whole header in extended header 0x00.
        case level2 = 2
    }

    /// How a member's bytes are stored.
    public enum Method: Sendable {
        /// As they are (`-lh0-`).
        case stored
        /// LHarc 1's LZSS and adaptive Huffman code (`-lh1-`).
        case lh1
        /// LArc's `-lz5-` with every byte sent as itself: before each eight, a flag byte of eight
        /// ones (LArc's LZSS without a copy). libarchive reads `-lz5-` headers only at level 0.
        case lz5Literals

        var name: String {
            switch self {
            case .stored: "-lh0-"
            case .lh1: "-lh1-"
            case .lz5Literals: "-lz5-"
            }
        }

        func pack(_ data: [UInt8]) -> [UInt8] {
            switch self {
            case .stored: data
            case .lh1: LH1Encoder.encode(data)
            case .lz5Literals: stride(from: 0, to: data.count, by: 8).flatMap { [0xFF] + data[$0..<min($0 + 8, data.count)] }
            }
        }
    }

    /// One file or folder of the archive.
    public struct Member: Sendable {
        /// The path as stored, in whatever encoding, with `/` between folders; a folder's own path
        /// ends with `/`.
        public var path: [UInt8]
        /// The bytes the member holds, which its header's size and CRC are of; a folder has none.
        public var data: [UInt8]
        public var method: Method
        /// The bytes stored in place of `data` packed by `method`: damaged or cut short ones.
        public var packedInstead: [UInt8]?

        public init(path: [UInt8], data: [UInt8] = [], method: Method = .stored) {
            self.path = path
            self.data = data
            self.method = method
        }

        public var isFolder: Bool { path.last == LZHWriter.slash }

        /// The bytes stored after the header.
        public var packed: [UInt8] { packedInstead ?? method.pack(data) }
    }

    public var level: HeaderLevel
    /// The OS ID of level-1 and level-2 headers (level 0 has none). `M`, MS-DOS, is what LHA for
    /// DOS and Windows wrote; it matters to readers: lhasa, for one, lowercases an MS-DOS path
    /// that is all capitals, and takes the time as local time.
    public var operatingSystem: UInt8
    private var members: [Member] = []

    public init(level: HeaderLevel, operatingSystem: UInt8 = UInt8(ascii: "M")) {
        self.level = level
        self.operatingSystem = operatingSystem
    }

    public mutating func add(_ member: Member) {
        precondition(!member.isFolder || member.data.isEmpty, "an LHA folder holds no data")
        members.append(member)
    }

    /// A member whose path is stored as UTF-8 bytes (LHA has no flag to say so).
    public mutating func add(path: String, data: [UInt8]) {
        add(Member(path: Array(path.utf8), data: data))
    }

    /// The whole archive: each member's header and data, then the 0 byte that ends the archive
    /// (a header never starts with 0, so readers stop there).
    public func encode() -> [UInt8] {
        var archive: [UInt8] = []
        for member in members {
            let packed = member.packed
            switch level {
            case .level0: archive += level0Header(for: member, packedSize: packed.count)
            case .level1: archive += level1Header(for: member, packedSize: packed.count)
            case .level2: archive += level2Header(for: member, packedSize: packed.count)
            }
            archive += packed
        }
        archive.append(0)
        return archive
    }

    // MARK: - Headers

    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")
    /// The folder separator of extended header 0x02.
    private static let folderSeparator: UInt8 = 0xFF
    private static let pathExtendedHeader: UInt8 = 0x02
    private static let nameExtendedHeader: UInt8 = 0x01
    private static let headerCRCExtendedHeader: UInt8 = 0x00
    /// MS-DOS's "archive" attribute; libarchive takes a level-1 or level-2 header only with this
    /// value in the attribute byte, and LHA writes it there at every level.
    private static let attribute: UInt8 = 0x20
    /// 1998-07-04 12:00:00 as MS-DOS time and date (levels 0 and 1) and as Unix time (level 2).
    private static let fixedMSDOSTime: UInt16 = 0x6000
    private static let fixedMSDOSDate: UInt16 = 0x24E4
    private static let fixedUnixTime: UInt32 = 899_553_600

    /// `header size, sum, method, sizes, time, attribute, level, name length, path, CRC`: the
    /// header size counts from the method on, and the sum adds up those same bytes.
    private func level0Header(for member: Member, packedSize: Int) -> [UInt8] {
        let path = member.path.map { $0 == Self.slash ? Self.backslash : $0 }
        var counted = fixedFields(of: member, packedSize: packedSize)
        counted.append(UInt8(path.count))
        counted += path
        Self.append(Self.crc16(member.data), to: &counted)
        precondition(counted.count <= 255, "a level-0 path is at most about 220 bytes")
        return [UInt8(counted.count), Self.sum(counted)] + counted
    }

    /// Level 0's layout with only the file's name in the name field, then the OS ID and a chain of
    /// extended headers holding the folder. The header size and sum cover the base header up to
    /// the size of the first extended header; the "packed size" counts the extended headers too,
    /// so that LHarc, which knew no extended headers, could still skip to the next member.
    private func level1Header(for member: Member, packedSize: Int) -> [UInt8] {
        let (folder, name) = Self.split(member.path)
        var extended: [(type: UInt8, data: [UInt8])] = []
        if !folder.isEmpty { extended.append((Self.pathExtendedHeader, Self.separatedByFF(folder))) }
        let chain = Self.chain(extended)

        var counted = fixedFields(of: member, packedSize: packedSize + chain.count - 2)
        counted.append(UInt8(name.count))
        counted += name
        Self.append(Self.crc16(member.data), to: &counted)
        counted.append(operatingSystem)
        counted += chain.prefix(2)
        precondition(counted.count <= 255, "a level-1 name is at most about 220 bytes")
        return [UInt8(counted.count), Self.sum(counted)] + counted + chain.dropFirst(2)
    }

    /// A 2-byte size of the whole header, the fixed fields with a Unix time, the OS ID, then the
    /// extended headers: the header's CRC first, the name, the folder. The CRC is computed with
    /// its own field at zero. A header whose size has a low byte of 0 gets one byte of padding,
    /// since its first byte would otherwise read as the end of the archive.
    private func level2Header(for member: Member, packedSize: Int) -> [UInt8] {
        let (folder, name) = Self.split(member.path)
        var extended: [(type: UInt8, data: [UInt8])] = [(Self.headerCRCExtendedHeader, [0, 0])]
        if !name.isEmpty { extended.append((Self.nameExtendedHeader, name)) }
        if !folder.isEmpty { extended.append((Self.pathExtendedHeader, Self.separatedByFF(folder))) }

        var header: [UInt8] = [0, 0] + fixedFields(of: member, packedSize: packedSize)
        Self.append(Self.crc16(member.data), to: &header)
        header.append(operatingSystem)
        let crcOffset = header.count + 2 + 1 // after the first extended header's size and type
        header += Self.chain(extended)
        if header.count % 256 == 0 { header.append(0) }
        precondition(header.count <= Int(UInt16.max), "a level-2 header is at most 65535 bytes")

        Self.replace(at: 0, in: &header, with: UInt16(header.count))
        Self.replace(at: crcOffset, in: &header, with: Self.crc16(header))
        return header
    }

    /// Method, packed size, original size, time, attribute and level: the fields at the same
    /// place in every level's header (offsets 2 to 20).
    private func fixedFields(of member: Member, packedSize: Int) -> [UInt8] {
        var fields = Array((member.isFolder ? "-lhd-" : member.method.name).utf8)
        Self.append(UInt32(packedSize), to: &fields)
        Self.append(UInt32(member.data.count), to: &fields)
        if level == .level2 {
            Self.append(Self.fixedUnixTime, to: &fields)
        } else {
            Self.append(Self.fixedMSDOSTime, to: &fields)
            Self.append(Self.fixedMSDOSDate, to: &fields)
        }
        fields.append(Self.attribute)
        fields.append(level.rawValue)
        return fields
    }

    /// Extended headers as LHA chains them: the size of the first, then each one's type, data and
    /// the size of the next, 0 after the last. A size counts the type, the data and the size field
    /// after them.
    private static func chain(_ headers: [(type: UInt8, data: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        append(UInt16(headers.first.map { $0.data.count + 3 } ?? 0), to: &bytes)
        for (index, header) in headers.enumerated() {
            bytes.append(header.type)
            bytes += header.data
            let next = headers.indices.contains(index + 1) ? headers[index + 1].data.count + 3 : 0
            append(UInt16(next), to: &bytes)
        }
        return bytes
    }

    /// The folder part of a path, up to and with its last `/`, and the name after it.
    private static func split(_ path: [UInt8]) -> (folder: [UInt8], name: [UInt8]) {
        guard let lastSlash = path.lastIndex(of: slash) else { return ([], path) }
        return (Array(path[...lastSlash]), Array(path[(lastSlash + 1)...]))
    }

    private static func separatedByFF(_ folder: [UInt8]) -> [UInt8] {
        folder.map { $0 == slash ? folderSeparator : $0 }
    }

    private static func sum(_ bytes: [UInt8]) -> UInt8 {
        bytes.reduce(0, &+)
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func replace(at offset: Int, in bytes: inout [UInt8], with value: UInt16) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8)
    }

    /// CRC-16 as LHA computes it, for data and level-2 headers alike (CRC-16/ARC: polynomial
    /// 0x8005 reflected, that is 0xA001, starting from 0).
    private static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = crc16Table[Int((crc ^ UInt16(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc
    }

    /// The CRC of each byte value, so that `crc16` takes one step per byte instead of eight.
    private static let crc16Table: [UInt16] = (0..<256).map { index in
        var value = UInt16(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xA001 : value >> 1
        }
        return value
    }
}
