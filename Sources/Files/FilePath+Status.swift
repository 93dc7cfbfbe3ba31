import SystemPackage

extension FilePath {
    /// Whether a folder is there (links followed).
    public var isFolder: Bool {
        (try? stat())?.type == .directory
    }
}

extension FilePath {
    /// A folder, an archive, or a folder inside an archive: a place that holds files.
    public var isFolderOrArchive: Bool {
        if isFolder { return true }
        guard let archived = ArchivedPath(self) else { return false }
        return archived.isArchive || ((try? archived.folder(memberLimit: Archive.memberSizeCeiling))?.exists ?? false)
    }
}

extension FilePath {
    /// The size of the file here (links followed), or of the archive member this path names.
    public func fileSize() throws(Errno) -> Int64 {
        do {
            return try Errno.typed { try stat() }.size
        } catch {
            guard error == .notDirectory, let archived = ArchivedPath(self), !archived.isArchive,
                let archive = try? Archive.open(archived.archive, memberLimit: Archive.memberSizeCeiling)
            else { throw error }
            guard let member = archive.members.first(where: { $0.name == archived.inside }) else { throw .noSuchFileOrDirectory }
            return member.size
        }
    }
}
