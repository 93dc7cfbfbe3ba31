import Files
import Foundation
import GRDB
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// An SQLite file smfplay keeps for itself (the library index, the resume state), in WAL mode so
/// that readers never wait for a writer and several smfplay processes share it, writers waiting
/// their turn for up to ``busyTimeout``.
///
/// Opening checks that the file is smfplay's (its `application_id`, "SMFP") and brings its tables
/// up to date. A file that is damaged, or an SQLite database of something else, is moved aside
/// (kept, with `.bad-` and the time in its name) and a new one made, once.
public enum DatabaseFile {
    /// "SMFP": marks a file as one of smfplay's.
    public static let applicationID: Int32 = 0x534D_4650
    public static let busyTimeout: TimeInterval = 15

    /// Why a database file could not be opened.
    public struct OpenError: Error, Sendable {
        public let reason: String
    }

    /// How the file is used, which decides how it is opened.
    public enum Access: Sendable {
        /// Read while another thread or process writes (the library index, searched while it is
        /// updated): a pool of reader connections beside the writer.
        case concurrentReads
        /// One connection, used by one thread at a time (the resume state).
        case oneConnection
    }

    /// What was opened, and where a damaged or foreign file found in its place was moved.
    public struct Opened: Sendable {
        public let database: any DatabaseWriter
        public let setAside: FilePath?
    }

    /// Opens the file at `path` (its folder made, for the user only, if missing), or makes it.
    /// `synchronous` is SQLite's setting for every connection: NORMAL loses at most the last
    /// transactions in a power cut, never the file, and costs no flush per transaction.
    public static func open(
        _ path: FilePath, access: Access, migrator: DatabaseMigrator, synchronous: String = "NORMAL", replacingDamage: Bool = false
    ) throws(OpenError) -> Opened {
        do {
            try AtomicWrite.makePersonalFolder(for: path)
        } catch {
            throw OpenError(reason: error.reason)
        }
        var aside: FilePath?
        if replacingDamage { aside = try moveAside(path, reason: "damaged") }
        createPersonally(path)
        do {
            return Opened(database: try openDatabase(path, access: access, migrator: migrator, synchronous: synchronous), setAside: aside)
        } catch let error as DatabaseError where isDamage(error) {
            aside = try moveAside(path, reason: error.message ?? "\(error)")
            do {
                return Opened(database: try openDatabase(path, access: access, migrator: migrator, synchronous: synchronous), setAside: aside)
            } catch {
                throw OpenError(reason: reason(error, file: path))
            }
        } catch {
            throw OpenError(reason: reason(error, file: path))
        }
    }

    /// Opens the file at `path` to read only, when it is ready: smfplay's, its tables up to date.
    /// Its connections write nothing, so opening takes no lock and flushes nothing (`open` writes
    /// as it opens a pool: GRDB makes and drops a table to have a WAL file, three flushes). Nil
    /// when the file is missing, not ready, another program's, damaged or unreadable: `open`
    /// makes, mends or updates it, or says what is wrong.
    public static func openReady(_ path: FilePath, migrator: DatabaseMigrator) -> (any DatabaseReader)? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        // One connection: a pool opens two (its writer, unused here, then a reader), each reading
        // and parsing the schema again, and starts a thread for the reader's queue.
        guard let queue = try? DatabaseQueue(path: path.string, configuration: configuration) else { return nil }
        let isReady = try? queue.read { db in
            try Int32.fetchOne(db, sql: "PRAGMA application_id") == applicationID && migrator.hasCompletedMigrations(db)
        }
        return isReady == true ? queue : nil
    }

    /// Makes a missing database file empty (which SQLite takes for a new database), readable by
    /// the user only: SQLite gives its journal files the same permissions, and what smfplay keeps
    /// says what someone listens to. An existing file is left as it is.
    private static func createPersonally(_ path: FilePath) {
        try? path.createNewFile(permissions: .ownerReadWrite)
    }

    /// Whether SQLite found the file damaged or not a database.
    public static func isDamage(_ error: DatabaseError) -> Bool {
        [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
    }

    /// An error with the database `file` in a few words: SQLite's message when there is one;
    /// "disk full" when SQLite could not write or grow a file (`SQLITE_FULL`, or an I/O error:
    /// what it says when its shared-memory file cannot grow) on a file system with no room left.
    public static func reason(_ error: any Error, file: FilePath) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        if [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode), DiskSpace.isFull(at: file.removingLastComponent()) {
            return SystemError.text(ENOSPC)
        }
        return error.message ?? "\(error.resultCode)"
    }

    /// Renames a damaged file to `PATH.bad-TIME` (`-2`, `-3`… after it when one was set aside in
    /// the same second: never over another), its journal files removed; returns the new name, or
    /// nil when there was no file to move.
    private static func moveAside(_ path: FilePath, reason: String) throws(OpenError) -> FilePath? {
        let name = path.string + ".bad-" + timestamp()
        let aside = (1...).lazy.map { FilePath($0 == 1 ? name : "\(name)-\($0)") }.first { $0.kind == nil }!
        var moved = true
        do {
            try path.rename(to: aside)
        } catch  where error != .noSuchFileOrDirectory {
            throw OpenError(reason: "it is damaged (\(reason)), and it cannot be moved aside: \(SystemError.text(error.rawValue))")
        } catch {
            moved = false
        }
        for suffix in ["-wal", "-shm"] { _ = FilePath(path.string + suffix).withPlatformString { unlink($0) } }
        return moved ? aside : nil
    }

    /// Opens the database, waiting its turn while another process makes the same file: switching a
    /// new file to WAL and making its tables take locks that SQLite's busy timeout does not wait
    /// for (it answers "database is locked" at once, to avoid a deadlock), so the opening is
    /// tried again for up to ``busyTimeout``.
    private static func openDatabase(_ path: FilePath, access: Access, migrator: DatabaseMigrator, synchronous: String) throws -> any DatabaseWriter {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        while true {
            do {
                return try openDatabaseOnce(path, access: access, migrator: migrator, synchronous: synchronous)
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && ContinuousClock.now < deadline {
                usleep(UInt32.random(in: 10_000...50_000))
            }
        }
    }

    private static func openDatabaseOnce(_ path: FilePath, access: Access, migrator: DatabaseMigrator, synchronous: String) throws
        -> any DatabaseWriter
    {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        // A pool switches the file to WAL as it opens it: another program's database is found so
        // first, read only, and set aside as it was.
        if access == .concurrentReads { try refuseAnotherProgramsDatabase(path) }
        let database: any DatabaseWriter =
            switch access {
            case .concurrentReads: try DatabasePool(path: path.string, configuration: configuration)
            case .oneConnection: try DatabaseQueue(path: path.string, configuration: configuration.withTruncatedJournal)
            }
        // Most openings find the file ready: a read says so without taking the write lock.
        let isReady = try database.read { db in
            try Int32.fetchOne(db, sql: "PRAGMA application_id") == applicationID && migrator.hasCompletedMigrations(db)
        }
        if isReady { return database }
        try database.write { db in
            try refuseAnotherProgramsDatabase(db)
            if try Int32.fetchOne(db, sql: "PRAGMA application_id") != applicationID {
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            }
        }
        // Two processes opening a new file at once both find it unready, and the second one's
        // migration fails on what the first one made ("duplicate column name"): GRDB reads which
        // migrations are done once, before running them, not in their transactions. Once the
        // file is ready, the other process did the work; while it is still at it (more migrations
        // done than before this try), this one tries again from where it has got to. An error
        // with no progress around it is this process's own.
        let applied = { (try? database.read { db in try migrator.appliedIdentifiers(db).count }) ?? 0 }
        while true {
            let appliedBefore = applied()
            do {
                try migrator.migrate(database)
                return database
            } catch {
                if (try? database.read { db in try migrator.hasCompletedMigrations(db) }) == true { return database }
                guard applied() > appliedBefore else { throw error }
                usleep(UInt32.random(in: 10_000...50_000))
            }
        }
    }

    /// Throws SQLITE_NOTADB for a database with tables and another program's application id.
    private static func refuseAnotherProgramsDatabase(_ db: Database) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if id != applicationID, tableCount > 0 {
            throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "an SQLite database of another program")
        }
    }

    /// The same, on the file at `path` opened read only, when there is a file with something in it.
    private static func refuseAnotherProgramsDatabase(_ path: FilePath) throws {
        guard (try? path.stat().size).map({ $0 > 0 }) == true else { return }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        try DatabaseQueue(path: path.string, configuration: configuration).read { db in try refuseAnotherProgramsDatabase(db) }
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}

extension Configuration {
    /// One connection with a rollback journal that stays in place between commits (truncated, not
    /// removed and made again each time). Not WAL: with the library index's WAL database open in
    /// the same process, a second WAL database went with heap corruption at exit in about one run
    /// of three (`smfplay browse`, play a file, quit: "tcache_thread_shutdown(): unaligned tcache
    /// chunk detected"; SQLite 3.40.1, GRDB 7.10; not root-caused), and in none of 36 runs with a
    /// rollback journal. Seen again after the index stopped using FilePath's components on its
    /// worker threads, which was another fault, found by AddressSanitizer. A commit still replaces
    /// its pages whole or not at all.
    fileprivate var withTruncatedJournal: Configuration {
        var configuration = self
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = TRUNCATE")
        }
        return configuration
    }
}
