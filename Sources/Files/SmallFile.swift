import SystemPackage

/// Reads a file smfplay keeps for itself (the resume state, a cache) in one piece, refusing
/// anything that cannot be one: a folder or a FIFO put in its place, or a file too large to be one
/// smfplay wrote. Or what a pipe gives, up to a limit.
public enum SmallFile {
    public enum StreamReadError: Error, Equatable {
        case unreadable(String)
        /// More than the limit came; reading stopped there.
        case tooLarge(limit: Int)
    }

    /// Everything a descriptor gives until its end (standard input, a pipe), refused as soon as it
    /// goes past `limit` bytes: the rest is never held.
    public static func readToEnd(_ fd: Int32, limit: Int) throws(StreamReadError) -> [UInt8] {
        let descriptor = FileDescriptor(rawValue: fd)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try Errno.typed { try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) } }
            } catch {
                throw .unreadable(SystemError.text(error.rawValue))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
            bytes += chunk[..<count]
        }
    }

    public static func read(_ path: FilePath, limit: Int) throws(FileReadError) -> [UInt8] {
        try ReadableFile(path).readAll(limit: limit)
    }
}
