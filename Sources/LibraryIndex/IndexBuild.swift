import Synchronization
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// The library's index built in the background, for a browser opened on a library that has none:
/// one reader at the lowest priority, so that music playing meanwhile is not starved, writing
/// batch by batch, so that a search finds what is read so far. Its own connection to the index
/// file (SQLite in WAL: the browser reads while it writes).
public final class IndexBuild: Sendable {
    /// How far the build is.
    public enum State: Hashable, Sendable {
        case running(IndexProgress?)
        case finished(filesFound: Int)
        case failed(String)
    }

    /// What the build's thread and the browser share.
    private final class Shared: Sendable {
        let state = Mutex(State.running(nil))
        let isCancelled = Atomic(false)
        /// The thread has returned.
        let isDone = Atomic(false)
    }

    private let shared = Shared()
    private let thread = Mutex<WorkerThreads.StartedThread?>(nil)

    /// Starts building the index at `databasePath` of the library at `root`; nil when no thread
    /// can be made.
    public init?(databasePath: FilePath, root: FilePath) {
        let shared = shared
        let started = WorkerThreads.start {
            // The lowest priority for this thread alone: on Linux a nice value is a thread's own.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            do throws(LibraryIndexError) {
                let database = try LibraryDatabase(path: databasePath)
                let indexer = LibraryIndexer(database: database, workers: 1, textEncoding: try database.textEncoding())
                let summary = try indexer.update(
                    root: root, isCancelled: { shared.isCancelled.load(ordering: .relaxed) },
                    progress: { progress in shared.state.withLock { $0 = .running(progress) } })
                shared.state.withLock { $0 = .finished(filesFound: summary.found) }
            } catch {
                shared.state.withLock { $0 = .failed(error.description) }
            }
            shared.isDone.store(true, ordering: .releasing)
        }
        guard let started else { return nil }
        thread.withLock { $0 = started }
    }

    public var state: State { shared.state.withLock { $0 } }

    /// Stops the build where it is (what is written stays; the next build goes on from there),
    /// waiting for its thread half a second at most: the build looks at the request between
    /// files, not while it lists a large library's folders (seconds), and the user who quits is
    /// not kept waiting for that. A thread still running is left to end with the process; SQLite
    /// keeps the file whole whatever moment that comes at.
    public func stop() {
        shared.isCancelled.store(true, ordering: .relaxed)
        let deadline = ContinuousClock.now + .milliseconds(500)
        while !shared.isDone.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(5_000) }
        guard shared.isDone.load(ordering: .acquiring) else { return }
        let started = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        started?.join()
    }
}
