import SystemPackage

/// The archives smfplay opens as folders: a file is one when its name says so and its first bytes
/// agree (a misnamed MIDI file stays a MIDI file, and no other file's head is read).
public enum ArchiveFormat: Sendable, Hashable {
    case zip
    case sevenZip
    case rar
    /// A tar file, compressed by gzip, bzip2 or xz or not.
    case tar
    /// LHA's (LZH): libarchive lists the members and decodes the methods LHA 2 and later wrote
    /// (`-lh0-`, `-lh5-` to `-lh7-`); liblhasa those it has no decoder for (LHarc 1's `-lh1-`,
    /// `-lh4-`, LArc's `-lzs-` and `-lz5-`: ``LhasaDecoder``).
    case lzh

    /// Names an archive of smfplay's may end with, lowercased.
    static let suffixes = [".zip", ".lzh", ".lha", ".7z", ".rar", ".tar", ".tgz", ".tar.gz", ".tbz2", ".tar.bz2", ".txz", ".tar.xz"]

    /// The format of the file at `path`, or nil when it is none of them (or cannot be read).
    public init?(fileAt path: FilePath) {
        guard Self.hasArchiveName(path), let file = try? ReadableFile(path), let head = try? file.read(upTo: 512, at: 0) else { return nil }
        self.init(head: head)
    }

    /// The format whose signature `head` (an archive's first bytes, 512 at most) starts with.
    public init?(head: [UInt8]) {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            self = .zip
        } else if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
            self = .sevenZip
        } else if starts(Array("Rar!".utf8)) {
            self = .rar
        } else if starts([0x1F, 0x8B]) || starts(Array("BZh".utf8)) || starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00])
            || starts(Array("ustar".utf8), at: 257)
        {
            self = .tar
        } else if head.count >= 7, head[2] == UInt8(ascii: "-"), head[6] == UInt8(ascii: "-"),
            [Array("lh".utf8), Array("lz".utf8), Array("pm".utf8)].contains(Array(head[3...4]))
        {
            self = .lzh
        } else {
            return nil
        }
    }

    /// Whether the name of `path` ends as an archive's does, in any case.
    public static func hasArchiveName(_ path: FilePath) -> Bool {
        let bytes = path.bytes
        let name = bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...]
        let lowered = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return suffixes.contains { suffix in lowered.count > suffix.utf8.count && lowered.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) }
    }
}
