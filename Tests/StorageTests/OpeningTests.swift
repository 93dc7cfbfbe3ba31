import GRDB
import Storage
import SystemPackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A new database file: made in a folder made for it, marked as smfplay's, its tables made, kept
/// from other users; opened as its kind of use asks; found again as it was.
@Suite("DatabaseFile: opening")
struct OpeningTests {
    static let kinds: [DatabaseFile.Access] = [.concurrentReads, .oneConnection]

    /// A file's permission bits.
    static func mode(_ path: FilePath) throws -> mode_t {
        try path.stat().mode.permissions.rawValue & 0o777
    }

    @Test("a new file is smfplay's, with its tables; nothing set aside", arguments: kinds)
    func newFile(access: DatabaseFile.Access) throws {
        let file = try StoredFile()
        let opened = try file.open(access)
        #expect(opened.setAside == nil)
        let (id, done) = try opened.database.read { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try StoredFile.migrator.hasCompletedMigrations(db))
        }
        #expect(id == 0x534D_4650 && done)
        try opened.database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
        #expect(try file.names() == (access == .concurrentReads ? ["FILE", "FILE-shm", "FILE-wal"] : ["FILE", "FILE-journal"]))
    }

    @Test("several readers beside the writer share the file in WAL; one connection keeps a truncated rollback journal")
    func connectionKinds() throws {
        let pooled = try StoredFile().open(.concurrentReads).database
        #expect(pooled is DatabasePool)
        #expect(try pooled.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        let single = try StoredFile().open(.oneConnection).database
        #expect(single is DatabaseQueue)
        #expect(try single.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "truncate")
    }

    @Test("the file, its journals and the folder made for it are the user's alone", arguments: kinds)
    func permissions(access: DatabaseFile.Access) throws {
        let file = try StoredFile()
        let previous = umask(0o022)
        defer { umask(previous) }
        let opened = try file.open(access)
        try opened.database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('private')") }
        #expect(try Self.mode(file.path.removingLastComponent()) == 0o700)
        for name in try file.names() {
            let path = file.path.removingLastComponent().appending(name.replacingOccurrences(of: "FILE", with: file.path.lastComponent!.string))
            #expect(try Self.mode(path) == 0o600, "\(name)")
        }
    }

    @Test("a file opened again keeps what it held, whichever way it is opened")
    func reopened() throws {
        let file = try StoredFile()
        try file.open(.oneConnection).database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('first')") }
        let again = try file.open(.concurrentReads)
        #expect(again.setAside == nil)
        #expect(try StoredFile.notes(again.database) == ["first"])
    }
}
