import Files
import Foundation
import GRDB
import Library
import SMF
import Synchronization
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Brings the index of a library folder up to date: finds its MIDI files, looks at each one's
/// size, modification time and inode, reads again only those that changed or are new (on all
/// cores), those whose texts were read in another text encoding, and RMID files indexed before
/// their INFO artists and albums were, and forgets those that are gone.
///
/// Files read are written in batches, each a transaction: stopped at any point (Ctrl-C), the index
/// holds every file either as it was or as it is now, and the next update reads only the rest.
public struct LibraryIndexer: Sendable {
    public let database: LibraryDatabase
    public let workers: Int
    /// The encoding files' texts are read in; nil: each file's own, decided from all its text.
    public let textEncoding: TextDecoding.Encoding?
    /// Files written in one transaction. Each transaction adds a segment to each full-text index,
    /// which FTS5 merges with others later, writing it again: fewer, larger transactions write the
    /// index fewer times (1,000 files a transaction took SQLite's part of a first index of
    /// 100,000 files twice as long as 5,000 did). Also about what a stop can lose: the next
    /// update reads it again.
    static let transactionSize = 5000
    /// The most files waiting for the writer: readers this far ahead wait for it.
    static let mostWaiting = 20_000
    /// Files a reader hands over at a time.
    static let handOverSize = 100
    /// A file read: its row, its texts for the full-text index, and why it was read.
    typealias ReadFile = (file: IndexedFile, search: SearchRow, change: Change)

    /// Why a file is read.
    enum Change {
        case added, changed
        /// Unchanged, but not read whole before: known only from the browser's old cache, or not
        /// readable at all then (see ``IndexedFile/isComplete``).
        case incomplete
        /// Unchanged, but its texts were read in another encoding.
        case recoded
        /// Unchanged, but an RMID file indexed before RMID files' INFO texts were.
        case rmidInfo
    }

    public init(database: LibraryDatabase, workers: Int, textEncoding: TextDecoding.Encoding?) {
        self.database = database
        self.workers = max(1, workers)
        self.textEncoding = textEncoding
    }

    /// Updates the index of `root` (an absolute path), which is then in this indexer's text
    /// encoding (see ``LibraryDatabase/textEncoding()``). While another process updates the index,
    /// waits for it (see ``LibraryDatabase/lockForUpdate(isCancelled:waiting:)``), after calling
    /// `waiting` with its process number. `progress` is called from worker threads: while the
    /// folders are listed, with the MIDI files found so far and none to read yet.
    public func update(
        root: FilePath, isCancelled: @escaping @Sendable () -> Bool = { false }, waiting: (Int32?) -> Void = { _ in },
        progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }
    ) throws(LibraryIndexError) -> IndexSummary {
        // First: files read in passing while this update runs are read in its encoding too.
        try database.setTextEncoding(textEncoding)
        var summary = IndexSummary()
        var collector = MIDIFileCollector(isCancelled: isCancelled) { found in progress(IndexProgress(found: found, toRead: 0, read: 0)) }
        collector.add(path: root)
        guard !collector.wasCancelled else {
            summary.wasCancelled = true
            return summary
        }
        summary.problems = collector.problems.filter { $0.path != root || !collector.files.isEmpty }.map(\.description)
        if collector.files.isEmpty, let problem = collector.problems.first(where: { $0.path == root }), problem.kind != .noMIDIFiles {
            throw .unreadableLibrary(path: root, reason: problem.reason)
        }
        if collector.files.isEmpty, case let indexed = try database.fileCount(under: root), indexed > 0 {
            throw .libraryEmptied(path: root, indexed: indexed, database: database.path)
        }
        return try update(
            collector.files, root: root, removingVanished: true, summary: summary, isCancelled: isCancelled, waiting: waiting,
            progress: progress)
    }

    /// Brings the index up to date for `files` under the library folder `root` (new or changed
    /// ones are read, and those read in another encoding; the rest of the library is left as it
    /// is): for a queue about to play. Waits while another process updates the index.
    public func refresh(_ files: [FilePath], root: FilePath) throws(LibraryIndexError) -> IndexSummary {
        try update(files.filter { $0.relativeBytes(under: root) != nil }, root: root, removingVanished: false, summary: IndexSummary())
    }

    private func update(
        _ files: [FilePath], root: FilePath, removingVanished: Bool, summary: IndexSummary,
        isCancelled: @escaping @Sendable () -> Bool = { false }, waiting: (Int32?) -> Void = { _ in },
        progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }
    ) throws(LibraryIndexError) -> IndexSummary {
        var summary = summary
        summary.found = files.count
        // Held to the end of the update: what the index knows is read after the last update ended.
        guard let lock = try database.lockForUpdate(isCancelled: isCancelled, waiting: waiting) else {
            summary.wasCancelled = true
            return summary
        }
        defer { withExtendedLifetime(lock) {} }
        let known = try knownFiles(under: root)
        let encodingName = TextDecoding.Encoding.name(of: textEncoding)
        var toRead: [(path: FilePath, stamp: IndexStamp, id: Int64?, change: Change)] = []
        /// Rows indexed before RMID files' INFO texts were, of files that are no RMID files.
        var withoutRMIDInfo: [Int64] = []
        // Each known row is matched at most once (a path listed twice is read once): by row
        // number, which hashes faster than the path, and the rows left unmatched have vanished.
        var matched = Set<Int64>(minimumCapacity: known.count)
        var added = Set<Data>()
        let stamps = Self.stamps(of: files)
        for (path, stamp) in zip(files, stamps) {
            let key = Data(path.bytes)
            guard let entry = known[key] else {
                if let stamp, added.insert(key).inserted { toRead.append((path, stamp, nil, .added)) }
                continue
            }
            guard matched.insert(entry.id).inserted, let stamp else { continue }
            if entry.stamp != stamp {
                toRead.append((path, stamp, entry.id, .changed))
            } else if !entry.isComplete {
                toRead.append((path, stamp, entry.id, .incomplete))
            } else if let read = entry.textEncoding, read != encodingName {
                toRead.append((path, stamp, entry.id, .recoded))
            } else if entry.isIndexedBeforeRMIDInfo, Self.isRMIDFile(path) {
                toRead.append((path, stamp, entry.id, .rmidInfo))
            } else {
                if entry.isIndexedBeforeRMIDInfo { withoutRMIDInfo.append(entry.id) }
                summary.unchanged += 1
            }
        }
        try database.clearIndexedBeforeRMIDInfo(withoutRMIDInfo)
        let vanished = removingVanished && matched.count < known.count ? known.values.map(\.id).filter { !matched.contains($0) } : []
        try remove(vanished)
        summary.removed = vanished.count
        // New files get row numbers in the order they were found (the folders' natural order), which
        // searches list them in, whichever worker reads them first.
        var nextID = try database.read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM file") ?? 0 } + 1
        for index in toRead.indices where toRead[index].id == nil {
            toRead[index].id = nextID
            nextID += 1
        }
        progress(IndexProgress(found: summary.found, toRead: toRead.count, read: 0))
        guard !toRead.isEmpty else { return summary }
        if toRead.count > Self.transactionSize { try database.prepareForLargeUpdate() }

        let pending = toRead
        let next = Atomic(0)
        let (database, textEncoding, found) = (database, textEncoding, summary.found)
        // Progress is what the readers have read, as they go: what is written lags it by up to
        // `mostWaiting` files, and moved a transaction (5,000 files) at a time.
        let readSoFar = Atomic(0)
        /// Reads files until none is left or the update is cancelled, handing them over `chunk`
        /// at a time; stops when `hand` says to.
        @Sendable func read(chunk: Int, handingTo hand: ([ReadFile]) -> Bool) {
            var files: [ReadFile] = []
            var folder: SearchFolder?
            func handOver() -> Bool {
                guard hand(files) else { return false }
                let read = readSoFar.wrappingAdd(files.count, ordering: .relaxed).newValue
                progress(IndexProgress(found: found, toRead: pending.count, read: read))
                files.removeAll(keepingCapacity: true)
                return true
            }
            while !isCancelled() {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < pending.count else { break }
                let item = pending[index]
                var (file, search) = Self.read(item.path, stamp: item.stamp, under: root, folder: &folder, textEncoding: textEncoding)
                file.id = item.id
                files.append((file, search, item.change))
                if files.count == chunk {
                    guard handOver() else { return }
                }
            }
            if !files.isEmpty { _ = handOver() }
        }
        var outcome = (read: 0, added: 0, updated: 0, stillUnread: 0, recoded: 0, rmidInfo: 0, unreadable: [String]())
        /// Counts files written.
        func count(_ written: [ReadFile]) {
            outcome.read += written.count
            outcome.added += written.count { $0.change == .added }
            // A file read whole at last has changed in the index; one still unreadable has not.
            outcome.updated += written.count { $0.change == .changed || ($0.change == .incomplete && $0.file.isComplete) }
            outcome.stillUnread += written.count { $0.change == .incomplete && !$0.file.isComplete }
            outcome.recoded += written.count { $0.change == .recoded }
            outcome.rmidInfo += written.count { $0.change == .rmidInfo }
            // Each problem names its file.
            outcome.unreadable += written.compactMap(\.file.problem)
        }
        var failure: LibraryIndexError?
        // Readers on every core, this thread writing what they read as it comes, a transaction
        // every `transactionSize` files. The readers yield to the writer (five nice values):
        // sharing the cores evenly, it fell behind them and wrote its last 20,000 files alone,
        // a second at the end of a first index of 100,000 files with one core idle.
        let readers = min(workers, toRead.count)
        let readFiles = ReadFiles<ReadFile>(readers: readers, limit: Self.mostWaiting)
        let started = WorkerThreads.runTogether(
            helpers: readers,
            { _ in
                ThreadNiceness.raiseForThisThread(by: 5)
                read(chunk: Self.handOverSize, handingTo: readFiles.hand)
                readFiles.readerFinished()
            },
            alongside: {
                do throws(LibraryIndexError) {
                    try database.writeWithoutTransaction { db in
                        var uncommitted: [ReadFile] = []
                        do {
                            while case let files = readFiles.take(), !files.isEmpty {
                                if uncommitted.isEmpty { try db.beginTransaction(.immediate) }
                                try Self.insert(files, into: db)
                                uncommitted += files
                                if uncommitted.count >= Self.transactionSize {
                                    try db.commit()
                                    count(uncommitted)
                                    uncommitted.removeAll(keepingCapacity: true)
                                }
                            }
                            if !uncommitted.isEmpty {
                                try db.commit()
                                count(uncommitted)
                            }
                        } catch {
                            if db.isInsideTransaction { try? db.rollback() }
                            throw error
                        }
                    }
                } catch {
                    failure = error
                    readFiles.stop()
                }
            })
        // No thread could be made: reading and writing in turn on this one.
        if !started {
            read(chunk: Self.transactionSize) { files in
                do throws(LibraryIndexError) {
                    try Self.write(files, to: database)
                    count(files)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        if let failure { throw failure }
        summary.added = outcome.added
        summary.updated = outcome.updated
        summary.unchanged += outcome.stillUnread
        summary.recoded = outcome.recoded
        summary.readForRMIDInfo = outcome.rmidInfo
        summary.unreadable = outcome.unreadable.sorted()
        summary.wasCancelled = outcome.read < toRead.count
        return summary
    }

    /// Each file's stamp (nil for one gone), looked up on all cores, a thousand files a job.
    private static func stamps(of files: [FilePath]) -> [IndexStamp?] {
        let chunk = 1000
        return WorkerThreads.results(ofJobs: (files.count + chunk - 1) / chunk) { job in
            files[job * chunk..<min(files.count, (job + 1) * chunk)].map(IndexStamp.init(path:))
        }.flatMap { $0.get() }
    }

    /// Reads `paths` (under the library folder `root`) and writes what was read into the index,
    /// whether they changed or not: for the browser, which asks for files as it shows them.
    func index(_ paths: [FilePath], root: FilePath) throws(LibraryIndexError) -> [IndexedFile] {
        var folder: SearchFolder?
        let batch = paths.compactMap { path -> ReadFile? in
            guard let stamp = IndexStamp(path: path) else { return nil }
            let (file, search) = Self.read(path, stamp: stamp, under: root, folder: &folder, textEncoding: textEncoding)
            return (file, search, .changed)
        }
        try Self.write(batch, to: database)
        return batch.map(\.file)
    }

    /// A file's row and its texts for the full-text index. `folder` is the last file's folder,
    /// kept for the next file (see ``SearchFolder``).
    private static func read(
        _ path: FilePath, stamp: IndexStamp, under root: FilePath, folder: inout SearchFolder?,
        textEncoding: TextDecoding.Encoding?
    ) -> (IndexedFile, SearchRow) {
        let facts = Result { () throws(SMFFileError) in try FileFacts(path: path, textEncoding: textEncoding) }
        let relative = relativeFolder(of: path, under: root)
        let current = folder.flatMap { $0.relative == relative ? $0 : nil } ?? SearchFolder(relative: relative)
        folder = current
        let search = SearchRow(path: path, folder: current, facts: try? facts.get())
        var file = IndexedFile(path: path, stamp: stamp, facts: facts, textEncoding: textEncoding)
        file.searchName = search.name
        return (file, search)
    }

    /// The folders between the library folder and the file, as text: what a search matches.
    static func relativeFolder(of path: FilePath, under root: FilePath) -> String {
        // On bytes: this runs on worker threads (see `FilePath.relativeBytes(under:)`).
        let relative = path.relativeBytes(under: root) ?? path.bytes[...]
        guard let slash = relative.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return FilePath(bytes: relative[..<slash]).text
    }

    /// The files the index holds under `root`, by path: their row, stamp and text encoding.
    private func knownFiles(under root: FilePath) throws(LibraryIndexError) -> [Data: KnownFile] {
        let range = PathRange(folder: root)
        return try database.read { db in
            var known: [Data: KnownFile] = [:]
            known.reserveCapacity(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM file WHERE path >= ? AND path < ?", arguments: [range.lower, range.upper]) ?? 0)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, path, size, modified_ns, inode, complete, text_encoding, before_rmid_info FROM file WHERE path >= ? AND path < ?
                    """, arguments: [range.lower, range.upper])
            while let row = try rows.next() {
                // Copied: a blob read from a row of a cursor points into SQLite's memory, which the
                // next row reuses. Columns by their place, not their names (which GRDB looks up).
                let path = try row.withUnsafeData(atIndex: 1) { data in data.map { $0.withUnsafeBytes { Data($0) } } ?? Data() }
                known[path] = (
                    row[0], IndexStamp(size: row[2], modifiedNanoseconds: row[3], inode: row[4]), row[5], row[6], row[7]
                )
            }
            return known
        }
    }

    private typealias KnownFile = (id: Int64, stamp: IndexStamp, isComplete: Bool, textEncoding: String?, isIndexedBeforeRMIDInfo: Bool)

    /// Whether the file starts as an RMID file does, whatever its name; a file that cannot be
    /// looked at is read again, which says why.
    private static func isRMIDFile(_ path: FilePath) -> Bool {
        guard let file = try? ReadableFile(path), let head = try? file.read(upTo: MIDIFileSignature.length, at: 0) else { return true }
        return MIDIFileSignature.isRMID(head)
    }

    private func remove(_ ids: [Int64]) throws(LibraryIndexError) {
        guard !ids.isEmpty else { return }
        try database.write { db in
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                let list = chunk.map(String.init).joined(separator: ",")
                try db.execute(sql: "DELETE FROM file WHERE id IN (\(list))")
                try db.execute(sql: Self.forgetNames + " IN (\(list))")
                try db.execute(sql: "DELETE FROM search WHERE rowid IN (\(list))")
                try db.execute(sql: "DELETE FROM pairs WHERE rowid IN (\(list))")
            }
        }
    }

    /// Takes rows (`WHERE rowid` and what follows) out of `names`, which keeps no copy of the
    /// names: FTS5 is given back each name it took in, from `search`, before that row goes.
    private static let forgetNames = "INSERT INTO names (names, rowid, name) SELECT 'delete', rowid, name FROM search WHERE rowid"

    /// A file's row, every column given.
    private static let insertFile: String = {
        let columns = IndexedFile.CodingKeys.allCases.map(\.rawValue)
        return "INSERT INTO file (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }()

    /// Writes `batch` in one transaction.
    static func write(_ batch: [ReadFile], to database: LibraryDatabase) throws(LibraryIndexError) {
        try database.write { db in try insert(batch, into: db) }
    }

    /// Writes `batch` on `db`, in its transaction.
    private static func insert(_ batch: [ReadFile], into db: Database) throws {
        // Prepared once a connection (a first index runs these half a million times).
        let rowOfPath = try db.cachedStatement(sql: "SELECT id FROM file WHERE path = ?")
        let isRowTaken = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM file WHERE id = ?)")
        let forgetNames = try db.cachedStatement(sql: Self.forgetNames + " = ?")
        let forgetSearch = try db.cachedStatement(sql: "DELETE FROM search WHERE rowid = ?")
        let forgetPairs = try db.cachedStatement(sql: "DELETE FROM pairs WHERE rowid = ?")
        let addSearch = try db.cachedStatement(sql: "INSERT INTO search (rowid, name, folders, title, words) VALUES (?, ?, ?, ?, ?)")
        let addNames = try db.cachedStatement(sql: "INSERT INTO names (rowid, name) VALUES (?, ?)")
        let addPairs = try db.cachedStatement(sql: "INSERT INTO pairs (rowid, name, rest) VALUES (?, ?, ?)")
        let addFile = try db.cachedStatement(sql: Self.insertFile)
        let addNewFile = try db.cachedStatement(sql: Self.insertFile + " ON CONFLICT DO NOTHING")
        /// Inserts a file new when the update began under the row number it was given, in one
        /// statement; false when another process has taken the number or the path since.
        func insertedAsGiven(_ file: IndexedFile) throws -> Bool {
            guard file.id != nil else { return false }
            addNewFile.setUncheckedArguments(StatementArguments(file.columnValues))
            try addNewFile.execute()
            return db.changesCount == 1
        }
        for (file, search, change) in batch {
            var file = file
            if try !(change == .added && insertedAsGiven(file)) {
                // The row the path has; else the number given to it, unless another process has
                // taken that number since (then the next free one).
                if let existing = try Int64.fetchOne(rowOfPath, arguments: [file.path]) {
                    file.id = existing
                    try file.update(db)
                    try forgetNames.execute(arguments: [existing])
                    try forgetSearch.execute(arguments: [existing])
                    try forgetPairs.execute(arguments: [existing])
                } else {
                    if let wanted = file.id, try Bool.fetchOne(isRowTaken, arguments: [wanted]) == true { file.id = nil }
                    // Not `file.insert(db)`: GRDB builds the statement's text again for each row.
                    // Unchecked: the statement's own columns, one value each.
                    addFile.setUncheckedArguments(StatementArguments(file.columnValues))
                    try addFile.execute()
                    file.id = file.id ?? db.lastInsertedRowID
                }
            }
            addSearch.setUncheckedArguments([file.id, search.name, search.folders, search.title, search.words])
            try addSearch.execute()
            addNames.setUncheckedArguments([file.id, search.name])
            try addNames.execute()
            addPairs.setUncheckedArguments([file.id, search.namePairs, search.otherPairs])
            try addPairs.execute()
        }
    }
}
