#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Reads a file smfplay keeps for itself (the resume state, a cache) in one piece, refusing
/// anything that cannot be one: a folder or a FIFO put in its place, or a file too large to be one
/// smfplay wrote. Or what a pipe gives, up to a limit.
public enum SmallFile {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case missing
        /// A folder is where the file should be.
        case folder
        /// A device, a FIFO or a socket is where the file should be.
        case notARegularFile
        /// Larger than any file of its kind.
        case tooLarge(size: Int64, limit: Int)
        case system(Errno)

        public var description: String {
            switch self {
            case .missing: "no such file"
            case .folder: "a folder is in its place"
            case .notARegularFile: "not a regular file"
            case .tooLarge(let size, let limit): "\(size) bytes, more than the \(limit) it can be"
            case .system(let code): SystemError.text(code.rawValue)
            }
        }
    }

    public enum StreamReadError: Error, Equatable {
        case unreadable(String)
        /// More than the limit came; reading stopped there.
        case tooLarge(limit: Int)
    }

    /// Everything a descriptor gives until its end (standard input, a pipe), refused as soon as it
    /// goes past `limit` bytes: the rest is never held.
    public static func readToEnd(_ fd: Int32, limit: Int) throws(StreamReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(SystemError.current) }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
            bytes += chunk[..<count]
        }
    }

    public static func read(_ path: FilePath, limit: Int) throws(ReadError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever.
        let fd = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .system(.current)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(.current) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .folder
        default: throw .notARegularFile
        }
        guard info.st_size <= limit else { throw .tooLarge(size: Int64(info.st_size), limit: limit) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw .system(.current) }
            // The file shrank while being read: what was read is all there is.
            guard result > 0 else { return Array(bytes[..<count]) }
            count += result
        }
        return bytes
    }
}
