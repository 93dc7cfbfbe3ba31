import SystemPackage

/// One place inside an archive seen as a folder: the folders under it (an archive inside this one
/// among them, when this one is not itself inside another) and its files, by name.
public struct ArchiveFolder: Sendable {
    /// Names of the folders here, as bytes (worked out on bytes: see ``FilePath/relativeBytes(under:)``).
    public let folders: [[UInt8]]
    /// The files here: each member's name within this place, and the member.
    public let files: [(name: [UInt8], member: ArchiveMember)]
    /// What was left out of the whole archive as it was read.
    public let warnings: [ArchiveWarning]
    /// Whether the place is in the archive at all (the archive itself always is).
    public let exists: Bool
    private let archive: Archive

    /// The bytes of a file here.
    public func data(of member: ArchiveMember) -> [UInt8]? {
        archive.data(of: member.name)
    }

    init(archive: Archive, at place: FilePath) {
        let prefix = place.isEmpty ? [] : place.bytes + [UInt8(ascii: "/")]
        var folders: [[UInt8]] = []
        var seenFolders: Set<[UInt8]> = []
        var files: [(name: [UInt8], member: ArchiveMember)] = []
        var exists = place.isEmpty
        for member in archive.members {
            let bytes = member.name.bytes
            guard bytes.count > prefix.count, bytes.starts(with: prefix) else { continue }
            exists = true
            let rest = bytes[prefix.count...]
            if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
                let name = Array(rest[..<slash])
                if seenFolders.insert(name).inserted { folders.append(name) }
            } else {
                let name = Array(rest)
                if ArchiveFormat.hasArchiveName(member.name), !archive.isNested {
                    if seenFolders.insert(name).inserted { folders.append(name) }
                } else {
                    files.append((name, member))
                }
            }
        }
        self.folders = folders
        self.files = files
        self.exists = exists
        warnings = archive.warnings
        self.archive = archive
    }
}
