import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Replaces a file with bytes held in memory, whole or not at all, even across a crash or a power
/// cut (a ``StagedFile``, with its guarantee).
public enum AtomicWrite {
    /// Who may read the file.
    public enum Access: Sendable {
        /// Only the user, in folders only the user may enter, created when missing (as the XDG
        /// Base Directory Specification asks): what smfplay keeps for itself says what someone
        /// listened to, which is nobody else's business.
        case personal
        /// As the umask says, in a folder that must exist: a file the user asked for.
        case shared
    }

    public static func write(_ bytes: [UInt8], to path: FilePath, access: Access = .shared) throws(FileWriteError) {
        if access == .personal { try makePersonalFolder(for: path) }
        let file: StagedFile
        do {
            file = try StagedFile(
                destination: path, permissions: access == .personal ? .ownerReadWrite : [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            throw FileWriteError(path: path, reason: SystemError.text(error.rawValue))
        }
    }

    /// Makes the folder `path` goes in, and those above it, for the user only.
    public static func makePersonalFolder(for path: FilePath) throws(FileWriteError) {
        do {
            try path.containingFolder.makeFolders(permissions: .ownerReadWriteExecute)
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
    }
}
