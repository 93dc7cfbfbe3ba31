import SystemPackage

/// A file in an archive: its name there (relative, as the archive holds its bytes) and size.
public struct ArchiveMember: Hashable, Sendable {
    public let name: FilePath
    public let size: Int64

    public init(name: FilePath, size: Int64) {
        self.name = name
        self.size = size
    }
}
