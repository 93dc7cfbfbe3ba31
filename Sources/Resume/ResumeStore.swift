import Files
import Foundation
import GRDB
import Library
import Storage
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The player's resume state on disk: `state.sqlite` in smfplay's state folder
/// (`$XDG_STATE_HOME/smfplay`, by default `~/.local/state/smfplay`), with `state.lock` beside it
/// for ``ResumeLock``.
///
/// The queue and the position are kept apart, so that what is written every second costs the same
/// for one file queued as for a hundred thousand: ``savePosition(_:)`` updates one small row, and
/// ``save(_:)`` writes the queue too, when it has changed. Each is a transaction flushed to disk
/// (SQLite's synchronous FULL): a crash, a `kill -9` or a power cut leaves the last one whole. A
/// `state.json` left by an older smfplay is carried over once, then removed.
///
/// ```swift
/// let store = ResumeStore(folder: XDGDirectories.current().stateFolder)
/// let lock = try store.lock()          // before anything is played
/// let loaded = store.load()            // loaded.warning: say it, and go on
/// try store.save(state)                // when the queue changes
/// try store.savePosition(position)     // every second, and at every pause, seek or skip
/// ```
public final class ResumeStore {
    public static let fileName: FilePath.Component = "state.sqlite"
    public static let lockFileName: FilePath.Component = "state.lock"

    public let folder: FilePath
    public var path: FilePath { folder.appending(Self.fileName) }
    public var lockFile: FilePath { folder.appending(Self.lockFileName) }
    var oldFile: FilePath { folder.appending(OldStateFile.name) }

    /// Opened at the first load or save; only ever touched by the thread that owns the store.
    private var database: (any DatabaseWriter)?

    public init(folder: FilePath) {
        self.folder = folder
    }

    /// What `load()` found.
    public struct Loaded: Hashable, Sendable {
        /// The state to resume; nil for a fresh start.
        public let state: ResumeState?
        /// Set when a state was there but could not be used, or the database had to be set aside.
        public let warning: ResumeStateWarning?
    }

    /// The saved state. Nothing saved is a fresh start. A damaged database (or someone else's in
    /// its place) is moved aside and a fresh start with a warning; so is an old `state.json` that
    /// cannot be read (moved to `state.json.bad`).
    public func load() -> Loaded {
        let database: any DatabaseWriter
        var warning: ResumeStateWarning?
        do {
            let opened = try open()
            database = opened.database
            if let aside = opened.setAside {
                warning = ResumeStateWarning(path: path, reason: "the database is damaged", movedTo: aside, moveFailure: nil)
            }
        } catch {
            return Loaded(state: nil, warning: ResumeStateWarning(path: path, reason: error.reason, movedTo: nil, moveFailure: nil))
        }
        do {
            if let state = try database.read(Self.fetch) {
                if let problem = state.problem {
                    return Loaded(state: nil, warning: ResumeStateWarning(path: path, reason: problem, movedTo: nil, moveFailure: nil))
                }
                return Loaded(state: state, warning: warning)
            }
        } catch {
            return Loaded(
                state: nil, warning: ResumeStateWarning(path: path, reason: DatabaseFile.reason(error, file: path), movedTo: nil, moveFailure: nil))
        }
        return migrateOldFile() ?? Loaded(state: nil, warning: warning)
    }

    /// Writes the queue and the position, whole or not at all.
    public func save(_ state: ResumeState) throws(FileWriteError) {
        if let problem = state.problem { throw FileWriteError(path: path, reason: "not saving a resume state: \(problem)") }
        try write { db in
            try db.execute(sql: "DELETE FROM queue_file")
            let insert = try db.makeStatement(sql: "INSERT INTO queue_file (number, path) VALUES (?, ?)")
            for (number, file) in state.queue.enumerated() {
                try insert.execute(arguments: [number, Data(file.stored.bytes)])
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO queue (id, library_root, play_order, repeat_mode, shuffled) VALUES (1, ?, ?, ?, ?)",
                arguments: [Data(state.libraryRoot.bytes), Self.encode(order: state.order), state.repeatMode, state.shuffled])
            try Self.store(state.position, in: db)
        }
    }

    /// Writes only the position: a few numbers, whatever the queue's length. The queue saved last
    /// must be the one it belongs to.
    public func savePosition(_ position: ResumeState.Position) throws(FileWriteError) {
        try write { db in try Self.store(position, in: db) }
    }

    /// Takes the state for this player until the lock is released; see ``ResumeLock``.
    public func lock() throws(ResumeLockError) -> ResumeLock {
        try ResumeLock(lockFile: lockFile)
    }

    // MARK: The database

    /// The database, and where a damaged one found at its first opening was moved.
    private func open() throws(DatabaseFile.OpenError) -> (database: any DatabaseWriter, setAside: FilePath?) {
        if let database { return (database, nil) }
        // One connection: the player that holds the lock is the only writer, and reads once.
        // FULL: a rollback journal in NORMAL could leave the file damaged by a power cut.
        let opened = try DatabaseFile.open(path, access: .oneConnection, migrator: Self.migrator, synchronous: "FULL")
        database = opened.database
        return (opened.database, opened.setAside)
    }

    /// One transaction.
    private func write(_ body: @escaping (Database) throws -> Void) throws(FileWriteError) {
        do {
            let database = try open().database
            try database.write(body)
        } catch let error as DatabaseFile.OpenError {
            throw FileWriteError(path: path, reason: error.reason)
        } catch {
            throw FileWriteError(path: path, reason: DatabaseFile.reason(error, file: path))
        }
    }

    private static func store(_ position: ResumeState.Position, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO position (id, place, seconds, ticks, file_size, modified_seconds, modified_nanoseconds)
                VALUES (1, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                position.place, position.seconds, position.ticks,
                position.file?.size, position.file?.modifiedSeconds, position.file?.modifiedNanoseconds,
            ])
    }

    private static func fetch(_ db: Database) throws -> ResumeState? {
        guard let queueRow = try Row.fetchOne(db, sql: "SELECT library_root, play_order, repeat_mode, shuffled FROM queue WHERE id = 1"),
            let positionRow = try Row.fetchOne(db, sql: "SELECT * FROM position WHERE id = 1")
        else { return nil }
        var files: [LibraryPath] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT number, path FROM queue_file ORDER BY number")
        while let row = try rows.next() {
            let bytes: Data = row["path"]
            guard row["number"] as Int == files.count, let path = LibraryPath(stored: FilePath(bytes: bytes)) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "the queue's file \(files.count + 1) is not a usable path")
            }
            files.append(path)
        }
        let fileStamp: FileStamp? = (positionRow["file_size"] as Int64?).map {
            FileStamp(size: $0, modifiedSeconds: positionRow["modified_seconds"] ?? 0, modifiedNanoseconds: positionRow["modified_nanoseconds"] ?? 0)
        }
        return ResumeState(
            libraryRoot: FilePath(bytes: queueRow["library_root"] as Data), queue: files, order: decode(order: queueRow["play_order"]),
            repeatMode: queueRow["repeat_mode"], shuffled: queueRow["shuffled"],
            position: .init(place: positionRow["place"], seconds: positionRow["seconds"], ticks: positionRow["ticks"], file: fileStamp))
    }

    /// The order as 32-bit little-endian numbers: a hundred thousand in 400 KB, read at once.
    private static func encode(order: [Int]) -> Data {
        var data = Data(capacity: order.count * 4)
        for index in order { withUnsafeBytes(of: UInt32(index).littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    private static func decode(order data: Data) -> [Int] {
        stride(from: 0, to: data.count - data.count % 4, by: 4).map { offset in
            data[data.startIndex + offset..<data.startIndex + offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
    }

    /// The tables. A change later is a new migration, never an edit of one that has shipped.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("queue and position") { db in
            try db.execute(
                sql: """
                    CREATE TABLE queue_file (number INTEGER PRIMARY KEY, path BLOB NOT NULL);
                    CREATE TABLE queue (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        library_root BLOB NOT NULL,
                        play_order BLOB NOT NULL,
                        repeat_mode TEXT NOT NULL,
                        shuffled INTEGER NOT NULL
                    );
                    CREATE TABLE position (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        place INTEGER NOT NULL,
                        seconds REAL NOT NULL,
                        ticks INTEGER NOT NULL,
                        file_size INTEGER,
                        modified_seconds INTEGER,
                        modified_nanoseconds INTEGER
                    );
                    """)
        }
        return migrator
    }()

    // MARK: The old file

    /// Carries an old `state.json` over into the database and removes it; nil when there is none.
    private func migrateOldFile() -> Loaded? {
        switch OldStateFile.read(oldFile) {
        case nil:
            return nil
        case .success(let state):
            do {
                try save(state)
            } catch {
                // Kept for the next start; this one resumes from it all the same.
                return Loaded(
                    state: state,
                    warning: ResumeStateWarning(
                        path: oldFile, reason: "cannot carry it over: \(error.reason)", movedTo: nil, moveFailure: nil, startsAfresh: false))
            }
            _ = oldFile.withPlatformString { unlink($0) }
            return Loaded(state: state, warning: nil)
        case .failure(let problem):
            let aside = folder.appending(OldStateFile.name.string + ".bad")
            var moveFailure: String?
            do {
                try oldFile.rename(to: aside)
            } catch {
                moveFailure = SystemError.text(error.rawValue)
            }
            return Loaded(
                state: nil,
                warning: ResumeStateWarning(
                    path: oldFile, reason: problem.reason, movedTo: moveFailure == nil ? aside : nil, moveFailure: moveFailure))
        }
    }
}
