import Files
import Foundation
import GRDB
import Storage
import SystemPackage
import TestSupport
import Testing

/// A file opened to read only when it is ready (what most searches of the library index do):
/// nothing written, nothing made; anything not ready is left to `open`.
@Suite("DatabaseFile: opening a ready file to read only")
struct ReadyOpeningTests {
    @Test("a ready file reads what was written, and is left as it was: its bytes, its time, no write allowed")
    func readyFile() throws {
        let file = try StoredFile()
        try file.open(.concurrentReads).database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
        let before = try DamagedFileTests.contents(file)
        let stamp = FileStamp(ofFileAt: file.path)
        let reader = try #require(DatabaseFile.openReady(file.path, migrator: StoredFile.migrator))
        #expect(try reader.read { db in try String.fetchAll(db, sql: "SELECT text FROM note") } == ["kept"])
        #expect(throws: DatabaseError.self) {
            try (reader as? any DatabaseWriter)?.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('not kept')") }
        }
        // Written pages would be in the WAL file until the last connection closes.
        #expect((FileStamp(ofFileAt: FilePath(file.path.string + "-wal"))?.size ?? 0) == 0)
        #expect(try DamagedFileTests.contents(file) == before)
        #expect(FileStamp(ofFileAt: file.path) == stamp)
    }

    @Test("no file: none made (nor its folder)")
    func missingFile() throws {
        let file = try StoredFile()
        #expect(DatabaseFile.openReady(file.path, migrator: StoredFile.migrator) == nil)
        #expect(file.path.removingLastComponent().kind == nil)
    }

    @Test("not ready: an empty file, tables not up to date, another program's database, damaged bytes; each left as it was")
    func notReady() throws {
        let empty = try StoredFile()
        try DamagedFileTests.write([], to: empty)
        var later = StoredFile.migrator
        later.registerMigration("later") { db in try db.execute(sql: "CREATE TABLE later (id INTEGER PRIMARY KEY)") }
        let older = try StoredFile()
        _ = try older.open(.concurrentReads)
        let foreign = try StoredFile()
        try FileManager.default.createDirectory(atPath: foreign.path.removingLastComponent().string, withIntermediateDirectories: true)
        try DatabaseQueue(path: foreign.path.string).write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let damaged = try StoredFile()
        try DamagedFileTests.write(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xA5, count: 8_176), to: damaged)
        for (file, migrator) in [(empty, StoredFile.migrator), (older, later), (foreign, StoredFile.migrator), (damaged, StoredFile.migrator)] {
            let before = try DamagedFileTests.contents(file)
            #expect(DatabaseFile.openReady(file.path, migrator: migrator) == nil, "\(file.path)")
            #expect(try DamagedFileTests.contents(file) == before, "\(file.path)")
        }
    }
}
