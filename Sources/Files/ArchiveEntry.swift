/// One entry of an archive as its reader gives it, before smfplay judges its name.
struct ArchiveEntry {
    enum Kind { case file, folder, other }

    /// The name's bytes as the archive holds them (UTF-8 where the archive says its names are).
    let name: [UInt8]
    let kind: Kind
    let isEncrypted: Bool
}

/// Where an archive's bytes come from: a file, or memory (an archive inside another).
enum ArchiveSource {
    case file(ReadableFile)
    case bytes([UInt8])

    /// A pass over the archive.
    func pass(_ format: ArchiveFormat) throws(ArchiveError) -> LibArchivePass {
        try LibArchivePass(self, format: format)
    }

    /// The archive's size in bytes (a file's when it was opened).
    var size: Int64 {
        switch self {
        case .file(let file): file.size
        case .bytes(let bytes): Int64(bytes.count)
        }
    }

    /// Up to `count` of the archive's bytes from `offset` on, fewer only at its end; nil when the
    /// file cannot be read. Beside libarchive's pass, for what it does not give: a file is read at
    /// an offset, which leaves the position libarchive reads from alone.
    func bytes(upTo count: Int, at offset: Int64) -> [UInt8]? {
        switch self {
        case .file(let file):
            return try? file.read(upTo: count, at: offset)
        case .bytes(let bytes):
            guard offset >= 0, offset <= Int64(bytes.count) else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
    }
}
