import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file locked for this process (`flock`, exclusive) for as long as this object lives, with a
/// few bytes saying who holds it. The lock goes with the open file: when this object goes, or the
/// process ends however it ends. The file itself is never removed, since a holder that removed it
/// could release a lock that another had just taken on it.
public final class LockFile: Sendable {
    /// Why the lock was not taken.
    public enum Failure: Error, Hashable, Sendable {
        /// Another open file holds it; `holder` is what its holder wrote in it (empty when it had
        /// not written yet).
        case held(holder: [UInt8])
        case system(Errno)
    }

    public let path: FilePath
    private let descriptor: FileDescriptor

    /// Opens `path`, creating it for the user only, takes the lock without waiting, and only then
    /// writes `holder` in the file in place of what was there, so that words in a locked file are
    /// its holder's.
    public init(_ path: FilePath, holder: [UInt8]) throws(Failure) {
        let descriptor: FileDescriptor
        do {
            descriptor = try Errno.typed {
                try FileDescriptor.open(path, .readWrite, options: [.create, .closeOnExec], permissions: .ownerReadWrite)
            }
        } catch {
            throw .system(error)
        }
        do {
            try Self.take(descriptor, writing: holder)
        } catch {
            try? descriptor.close()
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Locks `path` for this process, writing the process's number in it.
    public convenience init(forThisProcess path: FilePath) throws(Failure) {
        try self.init(path, holder: Array("\(getpid())\n".utf8))
    }

    /// The number of the process that holds a lock taken with ``init(forThisProcess:)``, from
    /// what it wrote; nil when it had not written yet.
    public static func process(writtenIn holder: [UInt8]) -> Int32? {
        String(decoding: holder, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Int32($0) }
    }

    deinit {
        try? descriptor.close()
    }

    private static func take(_ descriptor: FileDescriptor, writing holder: [UInt8]) throws(Failure) {
        var result: Int32
        repeat { result = flock(descriptor.rawValue, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let cause = Errno.current
            throw cause == .wouldBlock ? .held(holder: contents(of: descriptor)) : .system(cause)
        }
        do {
            try Errno.typed {
                try descriptor.resize(to: 0)
                _ = try descriptor.writeAll(toAbsoluteOffset: 0, holder)
            }
        } catch {
            throw .system(error)
        }
    }

    /// The first bytes of the file: what its holder wrote.
    private static func contents(of descriptor: FileDescriptor) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = (try? buffer.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        return Array(buffer[..<count])
    }
}
