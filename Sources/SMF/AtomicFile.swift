#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that they appear whole or not at all: the bytes go to a
/// temporary file beside the target, are flushed to disk, and are renamed over it.
public enum AtomicFile {
    /// Why a file could not be written. The message names the file.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot write: \(reason)" }
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let temporary = "\(path).tmp-\(getpid())"
        func failure() -> WriteError {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return WriteError(path: path, reason: reason)
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                close(fd)
                throw failure()
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            close(fd)
            throw failure()
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else { throw failure() }
        // The rename itself lasts only once the folder is flushed too.
        let folder = open(path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
