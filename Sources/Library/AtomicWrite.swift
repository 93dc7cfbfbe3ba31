#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file whole or not at all, even across a crash or a power cut: the
/// bytes go to a hidden temporary file beside it (a new random name, so two
/// writers never share one), which is flushed to disk and renamed over the file;
/// then the folder is flushed, so that the rename itself lasts. On failure the
/// temporary file is removed and the old file is left as it was.
///
/// The file is readable by the user only: what smfplay keeps for itself says what
/// someone listened to, which is nobody else's business.
enum AtomicWrite {
    static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        try makeFolder(folder, for: path)
        var temporary: String
        var fd: Int32
        repeat {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
            temporary = (folder.hasSuffix("/") ? folder : folder + "/") + ".\(name).\(suffix).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        } while fd < 0 && errno == EEXIST
        guard fd >= 0 else { throw FileWriteError(path: path, reason: systemError()) }
        func fail() -> FileWriteError {
            let error = FileWriteError(path: path, reason: systemError())
            unlink(temporary)
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
        guard close(fd) == 0, rename(temporary, path) == 0 else { throw fail() }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Creates `folder` and the folders above it that are missing, readable only by
    /// the user, as the XDG Base Directory Specification asks for its folders.
    static func makeFolder(_ folder: String, for path: String) throws(FileWriteError) {
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for name in folder.split(separator: "/") {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? name : "/" + name
            guard mkdir(prefix, 0o700) == 0 || errno == EEXIST else {
                throw FileWriteError(path: path, reason: "cannot create \(prefix): \(systemError())")
            }
        }
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
