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
    /// The size of the file here (links followed), of the archive member this path names, or of
    /// the file one of whose songs it names by number (`music.xmi/2`: the whole file's).
    public func fileSize() throws(Errno) -> Int64 {
        do {
            return try Errno.typed { try stat() }.size
        } catch {
            guard error == .notDirectory else { throw error }
            // Read (the archive is kept): a member may be in an archive inside the archive.
            if let archived = ArchivedPath(self), !archived.isArchive, let bytes = try? archived.read(memberLimit: Archive.memberSizeCeiling) {
                return Int64(bytes.count)
            }
            guard let size = try? numberedSong?.file.fileSize() else { throw .noSuchFileOrDirectory }
            return size
        }
    }
}
