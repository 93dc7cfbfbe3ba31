#if canImport(Glibc)
import Glibc
#endif
import Files
import SystemPackage

/// The resume state held by this player: while it lives, another smfplay that asks
/// for it gets ``ResumeLockError/heldByAnotherPlayer(lockFile:pid:)``, so that two
/// players never write over each other's state. A class, because it owns the open
/// lock file, whose closing (when the lock goes, or the process ends, however it
/// ends) releases the lock.
///
/// `flock` locks belong to an open file: a second opening of the lock file, in this
/// process or another, is refused; the file itself is never removed, since a player
/// that removed it could release a lock that another had just taken on it.
public final class ResumeLock: Sendable {
    public let lockFile: FilePath
    private let descriptor: Int32

    /// Creates `lockFile`, and its folder if it is missing.
    init(lockFile: FilePath) throws(ResumeLockError) {
        do {
            try AtomicWrite.makePersonalFolder(for: lockFile)
        } catch {
            throw .unusable(lockFile: lockFile, reason: error.reason)
        }
        let fd = lockFile.withPlatformString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .unusable(lockFile: lockFile, reason: SystemError.current) }
        var result: Int32
        repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            let pid = Self.pid(in: fd)
            close(fd)
            if code == EWOULDBLOCK { throw .heldByAnotherPlayer(lockFile: lockFile, pid: pid) }
            throw .unusable(lockFile: lockFile, reason: SystemError.text(code))
        }
        // Written only once the lock is held, so a pid in the file is the holder's.
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(fd, 0) == 0, pwrite(fd, text, text.count, 0) == text.count else {
            let reason = SystemError.current
            close(fd)
            throw .unusable(lockFile: lockFile, reason: reason)
        }
        self.lockFile = lockFile
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    private static func pid(in fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Int32($0) }
    }
}
