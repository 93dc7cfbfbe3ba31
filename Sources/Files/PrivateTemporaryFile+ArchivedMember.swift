import SystemPackage

extension PrivateTemporaryFile {
    /// The member of an archive at `path` (`songs.zip/song.rmi`) copied out whole, for a reader of
    /// files on disk (an RMID file's own sound bank, read by its place in the file); nil when `path`
    /// is on disk, or names no member of an archive.
    public static func copy(ofArchivedMember path: FilePath) throws(ArchivedMemberCopyError) -> PrivateTemporaryFile? {
        guard path.kind == nil, let archived = ArchivedPath(path), !archived.isArchive else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try archived.read(memberLimit: Archive.memberSizeCeiling)
        } catch {
            throw .unreadable(error)
        }
        do {
            return try PrivateTemporaryFile(holding: bytes[...], fileExtension: path.extension ?? "bin")
        } catch {
            throw .uncopied(error)
        }
    }
}

/// Why a member of an archive could not be copied out.
public enum ArchivedMemberCopyError: Error, Sendable, CustomStringConvertible {
    case unreadable(ArchiveError)
    case uncopied(FileWriteError)

    public var description: String {
        switch self {
        case .unreadable(let error): error.description
        case .uncopied(let error): error.description
        }
    }
}
