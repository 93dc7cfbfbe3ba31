import Files
import Foundation
import GRDB
import SystemPackage

/// What the browser shows beside each MIDI file (its length and tracks), from the library index,
/// without ever waiting: a file the index does not know as it is now is read on a worker thread,
/// written into the index (so that browsing keeps the index up to date), and shown at the next
/// redraw.
///
/// A class: it owns the worker thread, which ends when the details go.
public final class FileDetails: Sendable {
    public enum Lookup: Hashable, Sendable {
        case ready(durationSeconds: Double, trackCount: Int)
        /// Being read; ask again later.
        case pending
        /// The file cannot be read as MIDI, or not at all: the reason.
        case unreadable(String)
    }

    /// Files asked for and not yet read; beyond this the oldest requests are dropped (the browser
    /// asks again for what it still shows).
    static let pendingLimit = 256

    private let work: FileDetailsWork

    /// `root` is the library folder: the files' folders below it are what searches find. Files are
    /// read in the index's text encoding (see ``LibraryDatabase/textEncoding()``).
    public init(database: LibraryDatabase, root: FilePath) {
        // An index that cannot say (it will not be searched either): each file's own.
        let textEncoding = try? database.textEncoding()
        work = FileDetailsWork(indexer: LibraryIndexer(database: database, workers: 1, textEncoding: textEncoding), root: root)
    }

    deinit {
        work.stop()
    }

    /// The file's details if the index knows the file as it is now; otherwise `.pending`, and the
    /// file is read in the background.
    public func lookUp(_ path: FilePath) -> Lookup {
        guard let stamp = IndexStamp(path: path) else { return .unreadable(SystemError.current) }
        return work.lookUp(path, stamp: stamp)
    }
}

/// The details known and the requests, shared by ``FileDetails`` and its worker thread under one
/// condition lock (the worker sleeps on it while there is nothing to do).
private final class FileDetailsWork: @unchecked Sendable {
    // @unchecked: every `var` is read and written under `condition`'s lock, which it owns.
    private let condition = NSCondition()
    private let indexer: LibraryIndexer
    private let root: FilePath
    private var known: [FilePath: (stamp: IndexStamp, lookup: FileDetails.Lookup)] = [:]
    private var pending: [FilePath] = []
    /// The file the worker is reading now: asking for it again must not queue it twice.
    private var working: FilePath?
    private var isRunning = false
    private var isStopped = false

    init(indexer: LibraryIndexer, root: FilePath) {
        self.indexer = indexer
        self.root = root
    }

    func lookUp(_ path: FilePath, stamp: IndexStamp) -> FileDetails.Lookup {
        condition.lock()
        defer { condition.unlock() }
        if let entry = known[path], entry.stamp == stamp { return entry.lookup }
        if let indexed = try? indexer.database.indexedFile(at: path), indexed.stamp == stamp, indexed.isComplete {
            let lookup = indexed.lookup
            known[path] = (stamp, lookup)
            return lookup
        }
        if path == working { return .pending }
        // The latest request first: it is what the browser shows now.
        if let index = pending.firstIndex(of: path) { pending.remove(at: index) }
        pending.append(path)
        if pending.count > FileDetails.pendingLimit { pending.removeFirst() }
        if !isRunning, !isStopped {
            isRunning = true
            Thread { [self] in run() }.start()
        }
        condition.broadcast()
        return .pending
    }

    /// Stops the worker and waits for it to end (it finishes the file it is reading, if any): no
    /// write into the index goes on after the details are gone.
    func stop() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        while isRunning { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        defer {
            isRunning = false
            condition.broadcast()
            condition.unlock()
        }
        while true {
            while pending.isEmpty, !isStopped { condition.wait() }
            if isStopped { break }
            let path = pending.removeLast()
            working = path
            condition.unlock()
            let indexed = try? indexer.index([path], root: root).first
            condition.lock()
            working = nil
            if let indexed { known[path] = (indexed.stamp, indexed.lookup) }
        }
    }
}

extension IndexedFile {
    var stamp: IndexStamp { IndexStamp(size: size, modifiedNanoseconds: modifiedNanoseconds, inode: inode) }

    var lookup: FileDetails.Lookup {
        if let duration, let trackCount { return .ready(durationSeconds: duration, trackCount: trackCount) }
        return .unreadable(problem ?? "unreadable")
    }
}

extension LibraryDatabase {
    /// The index's row for a file, if it has one.
    func indexedFile(at path: FilePath) throws(LibraryIndexError) -> IndexedFile? {
        try read { db in try IndexedFile.fetchOne(db, sql: "SELECT * FROM file WHERE path = ?", arguments: [Data(path.bytes)]) }
    }
}
