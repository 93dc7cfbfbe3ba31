#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Replaces a file whole or not at all, even across a crash or a power cut: the bytes go to a
/// ``TemporarySibling``, which is flushed to disk and renamed over the file; then the folder is
/// flushed, so that the rename itself lasts. On failure the temporary file is removed and the old
/// file is left as it was.
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
        if access == .personal { try makeFolder(TemporarySibling.folder(of: path), for: path) }
        let (fd, temporary): (Int32, FilePath)
        do {
            (fd, temporary) = try TemporarySibling.create(for: path, permissions: access == .personal ? 0o600 : 0o666)
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
        func fail() -> FileWriteError {
            let error = FileWriteError(path: path, reason: SystemError.current)
            _ = temporary.withPlatformString { unlink($0) }
            return error
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                defer { close(fd) }
                throw fail()
            }
            written += count
        }
        guard fsync(fd) == 0 else {
            defer { close(fd) }
            throw fail()
        }
        let renamed = temporary.withPlatformString { from in path.withPlatformString { to in rename(from, to) } }
        guard close(fd) == 0, renamed == 0 else { throw fail() }
        TemporarySibling.syncFolder(of: path)
    }

    /// Creates `folder` and the folders above it that are missing, readable only by the user.
    /// On bytes, not through `components`: files are written on threads other than the main one
    /// too (thumbnails for the media keys), where that accessor is not safe (see
    /// ``FilePath/relativeBytes(under:)``).
    public static func makeFolder(_ folder: FilePath, for path: FilePath) throws(FileWriteError) {
        let bytes = folder.bytes
        let slash = UInt8(ascii: "/")
        let ends = bytes.indices.filter { $0 > 0 && bytes[$0] == slash && bytes[$0 - 1] != slash } + (bytes.last == slash ? [] : [bytes.count])
        for end in ends {
            let prefix = FilePath(bytes: bytes[..<end])
            guard prefix.withPlatformString({ mkdir($0, 0o700) }) == 0 || errno == EEXIST else {
                throw FileWriteError(path: path, reason: "cannot create \(prefix.text): \(SystemError.current)")
            }
        }
    }
}
