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
}
