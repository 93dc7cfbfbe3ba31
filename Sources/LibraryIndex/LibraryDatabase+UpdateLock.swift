import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension LibraryDatabase {
    /// The file whose lock (``LockFile``) the one process updating this index holds.
    public var updateLockPath: FilePath { FilePath(path.string + ".update-lock") }

    /// Takes the update lock, waiting while another update holds it; nil when `isCancelled` says
    /// so first. SQLite lets one writer in at a time, but an update keeps writing for as long as
    /// it reads (a first index: seconds to minutes), and a second writer waiting in SQLite's busy
    /// handler gave up after its timeout ("database is locked"), or read the whole library again
    /// beside the first. With the lock, a second update waits for the first to end and then reads
    /// only what the first did not. `waiting` is called once, with the holder's process number,
    /// when the lock is found held.
    func lockForUpdate(isCancelled: () -> Bool, waiting: (Int32?) -> Void) throws(LibraryIndexError) -> LockFile? {
        var announced = false
        while true {
            do {
                return try LockFile(forThisProcess: updateLockPath)
            } catch {
                switch error {
                case .held(let holder):
                    if !announced {
                        announced = true
                        waiting(LockFile.process(writtenIn: holder))
                    }
                    guard !isCancelled() else { return nil }
                    usleep(50_000)
                case .system(let cause):
                    throw .cannotOpen(path: updateLockPath, reason: SystemError.text(cause.rawValue))
                }
            }
        }
    }
}
