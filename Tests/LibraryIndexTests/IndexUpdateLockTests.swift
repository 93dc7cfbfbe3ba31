import Files
import Foundation
import Synchronization
import SystemPackage
import Testing

@testable import LibraryIndex

#if canImport(Glibc)
    import Glibc
#endif

/// One update of an index at a time: a second waits for the first to end, then reads only what the
/// first did not; the lock is all the second sees of the first, so a test holding it stands for
/// another process updating.
struct IndexUpdateLockTests {
    /// Waits up to 30 s for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    @Test func aSecondUpdateWaitsForTheFirstThenGoesOn() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        var another: LockFile? = try LockFile(forThisProcess: database.updateLockPath)
        let waitedFor = Mutex<[Int32?]>([])
        let outcome = Mutex<Result<IndexSummary, LibraryIndexError>?>(nil)
        let root = world.rootPath
        Thread {
            let result = Result { () throws(LibraryIndexError) in
                try LibraryIndexer(database: database, workers: 2, textEncoding: nil).update(
                    root: root, waiting: { process in waitedFor.withLock { $0.append(process) } })
            }
            outcome.withLock { $0 = result }
        }.start()
        #expect(Self.eventually { !waitedFor.withLock { $0 }.isEmpty })
        usleep(300_000)
        #expect(outcome.withLock { $0 } == nil)
        #expect(try database.fileCount(under: root) == 0)
        another = nil
        #expect(Self.eventually { outcome.withLock { $0 } != nil })
        let summary = try #require(outcome.withLock { $0 }).get()
        #expect(waitedFor.withLock { $0 } == [getpid()])
        #expect(summary.added == 7 && !summary.wasCancelled)
        #expect(try world.search(["ballade", "chopin"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        _ = another
    }

    @Test func anUpdateWaitingForAnotherStopsWhenAsked() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        let another = try LockFile(forThisProcess: database.updateLockPath)
        let waited = Atomic(false)
        let summary = try LibraryIndexer(database: database, workers: 2, textEncoding: nil).update(
            root: world.rootPath, isCancelled: { waited.load(ordering: .relaxed) },
            waiting: { _ in waited.store(true, ordering: .relaxed) })
        #expect(waited.load(ordering: .relaxed) && summary.wasCancelled)
        #expect(try database.fileCount(under: world.rootPath) == 0)
        withExtendedLifetime(another) {}
    }
}
