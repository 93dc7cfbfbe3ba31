import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The resume state held by this player: while it lives, another smfplay that asks
/// for it gets ``ResumeLockError/heldByAnotherPlayer(lockFile:pid:)``, so that two
/// players never write over each other's state. A class, because it owns the open
/// lock file, whose closing (when the lock goes, or the process ends, however it
/// ends) releases the lock.
///
/// The lock belongs to an open file (``LockFile``): a second opening of the lock file,
/// in this process or another, is refused.
public final class ResumeLock: Sendable {
    public let lockFile: FilePath
    /// Open, and so locked, for as long as this lives.
    private let file: LockFile

    /// Creates `lockFile`, and its folder if it is missing.
    init(lockFile: FilePath) throws(ResumeLockError) {
        do {
            try AtomicWrite.makePersonalFolder(for: lockFile)
        } catch {
            throw .unusable(lockFile: lockFile, reason: error.reason)
        }
        do {
            file = try LockFile(lockFile, holder: Array("\(getpid())\n".utf8))
        } catch {
            switch error {
            case .held(let holder):
                let pid = String(decoding: holder, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Int32($0) }
                throw .heldByAnotherPlayer(lockFile: lockFile, pid: pid)
            case .system(let cause):
                throw .unusable(lockFile: lockFile, reason: SystemError.text(cause.rawValue))
            }
        }
        self.lockFile = lockFile
    }
}
