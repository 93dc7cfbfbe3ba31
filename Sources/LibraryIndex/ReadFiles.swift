import WorkerThreads

/// Files read by the indexer's readers, waiting for its one writer (SQLite writes one transaction
/// at a time): readers hand over what they read and go on reading, the writer takes them as they
/// come (and commits them in large transactions), and neither waits for the other while there is
/// work for both.
final class ReadFiles<File: Sendable>: @unchecked Sendable {
    // @unchecked: every `var` is read and written under `condition`.
    private let condition = ThreadCondition()
    private var waiting: [File] = []
    private var readersLeft: Int
    private var isStopped = false
    /// The most files waiting: readers far ahead of the writer wait for it.
    private let limit: Int

    init(readers: Int, limit: Int) {
        readersLeft = readers
        self.limit = limit
    }

    /// Hands over files read; false once the writer has stopped (the reader stops too).
    func hand(_ files: [File]) -> Bool {
        condition.withLock {
            while !isStopped, waiting.count >= limit { condition.wait() }
            guard !isStopped else { return false }
            waiting += files
            condition.broadcast()
            return true
        }
    }

    /// A reader has read its last file.
    func readerFinished() {
        condition.withLock {
            readersLeft -= 1
            condition.broadcast()
        }
    }

    /// The files waiting, once there are some or every reader has finished; empty when every
    /// reader has finished and every file has been taken.
    func take() -> [File] {
        condition.withLock {
            while waiting.isEmpty, readersLeft > 0 { condition.wait() }
            let taken = waiting
            waiting = []
            condition.broadcast()
            return taken
        }
    }

    /// The writer stops: readers stop at their next hand-over.
    func stop() {
        condition.withLock {
            isStopped = true
            condition.broadcast()
        }
    }
}
