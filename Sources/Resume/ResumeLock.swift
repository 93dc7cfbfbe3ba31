import Files
import SystemPackage

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
            file = try LockFile(forThisProcess: lockFile)
        } catch {
            switch error {
            case .held(let holder):
                throw .heldByAnotherPlayer(lockFile: lockFile, pid: LockFile.process(writtenIn: holder))
            case .system(let cause):
                throw .unusable(lockFile: lockFile, reason: SystemError.text(cause.rawValue))
            }
        }
        self.lockFile = lockFile
    }
}
