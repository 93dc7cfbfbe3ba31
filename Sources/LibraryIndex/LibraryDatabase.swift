#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB

/// The SQLite file of the library index (WAL, so that a search never waits for an update, and
/// several smfplay processes share it: writers wait their turn for up to ``busyTimeout``).
///
/// A file that is damaged, or an SQLite database of something else, is moved aside (kept, with
/// `.bad` and the time in its name) and a new one made: the index can always be built again.
public final class LibraryDatabase: Sendable {
    public let path: String
    let pool: DatabasePool
    /// Where a damaged or foreign file found at `path` was moved; nil when none was.
    public let setAside: String?

    /// "SMFP": marks the file as smfplay's library index.
    static let applicationID: Int32 = 0x534D_4650
    static let busyTimeout: TimeInterval = 15

    /// Opens the index at `path`, or makes it. With `replacingDamage`, a file found damaged is
    /// moved aside first (as ``LibraryIndexError/damaged(path:reason:)`` from a search or an
    /// update asks: damage deep in a file shows only when its pages are read).
    public init(path: String, replacingDamage: Bool = false) throws(LibraryIndexError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: path, reason: "cannot make its folder: \((error as NSError).localizedDescription)")
        }
        var aside: String?
        if replacingDamage { aside = try Self.moveAside(path, reason: "damaged") }
        do {
            pool = try Self.open(path)
        } catch let error as DatabaseError where Self.isDamage(error) {
            aside = try Self.moveAside(path, reason: error.message ?? "\(error)")
            do {
                pool = try Self.open(path)
            } catch {
                throw .cannotOpen(path: path, reason: Self.reason(error))
            }
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
        setAside = aside
    }

    /// Renames a damaged file to `PATH.bad-TIME`, its journal files removed; returns the new name.
    private static func moveAside(_ path: String, reason: String) throws(LibraryIndexError) -> String {
        let aside = path + ".bad-" + timestamp()
        guard rename(path, aside) == 0 else {
            throw .cannotOpen(path: path, reason: "it is damaged (\(reason)), and it cannot be moved aside: \(String(cString: strerror(errno)))")
        }
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        return aside
    }

    private static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // The index can be rebuilt: a power cut may lose the last transactions, never the file.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if id != applicationID, tableCount > 0 {
                throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "an SQLite database of another program")
            }
            if id != applicationID { try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
        }
        try migrator.migrate(pool)
        return pool
    }

    private static func isDamage(_ error: DatabaseError) -> Bool {
        [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }

    /// The tables. A change later is a new migration, never an edit of one that has shipped.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("files and their words") { db in
            try db.execute(sql: """
                CREATE TABLE file (
                    id INTEGER PRIMARY KEY,
                    path BLOB NOT NULL UNIQUE,
                    size INTEGER NOT NULL,
                    modified_ns INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    problem TEXT,
                    duration REAL,
                    format INTEGER,
                    track_count INTEGER,
                    channels TEXT,
                    note_count INTEGER,
                    programs TEXT,
                    mode TEXT,
                    title TEXT,
                    copyright TEXT,
                    has_lyrics INTEGER NOT NULL DEFAULT 0,
                    words TEXT,
                    search_name TEXT NOT NULL DEFAULT ''
                );
                CREATE VIRTUAL TABLE search USING fts5(name, folders, title, words, tokenize = 'trigram');
                CREATE VIRTUAL TABLE pairs USING fts5(name, rest, tokenize = 'unicode61 remove_diacritics 0');
                """)
        }
        migrator.registerMigration("files known from the old cache") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN complete INTEGER NOT NULL DEFAULT 1")
        }
        return migrator
    }()

    /// How many files the index holds under `folder`.
    public func fileCount(under folder: String) throws(LibraryIndexError) -> Int {
        let range = PathRange(folder: folder)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM file WHERE path >= ? AND path < ?", arguments: [range.lower, range.upper]) ?? 0
        }
    }

    /// Whether the index holds any file under `folder` (at once, however many it holds).
    public func hasFiles(under folder: String) throws(LibraryIndexError) -> Bool {
        let range = PathRange(folder: folder)
        return try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM file WHERE path >= ? AND path < ?)", arguments: [range.lower, range.upper]) ?? false
        }
    }

    func read<Value>(_ body: (Database) throws -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try pool.read(body)
        } catch {
            throw failure(error)
        }
    }

    func write<Value>(_ body: (Database) throws -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try pool.write(body)
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> LibraryIndexError {
        if let error = error as? DatabaseError, Self.isDamage(error) { return .damaged(path: path, reason: Self.reason(error)) }
        return .database(path: path, reason: Self.reason(error))
    }
}

/// The paths under a folder, as a range of byte strings: those from `folder/` up to, not
/// including, `folder0` (the byte after `/`), which an index on the path answers at once.
struct PathRange {
    let lower: Data
    let upper: Data

    init(folder: String) {
        var bytes = Array(folder.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        if bytes != [UInt8(ascii: "/")] { bytes.append(UInt8(ascii: "/")) }
        lower = Data(bytes)
        bytes[bytes.count - 1] += 1
        upper = Data(bytes)
    }
}
