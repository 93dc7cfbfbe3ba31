import Foundation
import GRDB
import Storage
import SystemPackage
import TestSupport
import Testing

/// A file in a database's place that is not smfplay's or is damaged: moved aside whole, as
/// `FILE.bad-<UTC time>`, and a new database made in its place.
@Suite("DatabaseFile: damaged files")
struct DamagedFileTests {
    /// What sets a file aside, and what each opening finds of it.
    static let kinds: [DatabaseFile.Access] = [.concurrentReads, .oneConnection]

    /// Expects `opened` to have set the file aside under the documented name, and to be a new,
    /// empty database of smfplay's; returns what the file set aside holds.
    @discardableResult
    static func expectSetAside(_ opened: DatabaseFile.Opened, _ file: StoredFile) throws -> [UInt8] {
        let aside = try #require(opened.setAside)
        let name = aside.lastComponent!.string
        #expect(name.wholeMatch(of: /smfplay\.sqlite\.bad-\d{8}-\d{6}(-\d+)?/) != nil, "\(name)")
        #expect(aside.removingLastComponent() == file.path.removingLastComponent())
        #expect(try StoredFile.notes(opened.database).isEmpty)
        #expect(try file.names().filter { !$0.hasPrefix("FILE.bad-") }.allSatisfy { $0.hasPrefix("FILE") })
        return Array(try Data(contentsOf: URL(fileURLWithPath: aside.string)))
    }

    static func write(_ bytes: [UInt8], to file: StoredFile) throws {
        try FileManager.default.createDirectory(atPath: file.path.removingLastComponent().string, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file.path.string))
    }

    static func contents(_ file: StoredFile) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file.path.string)))
    }

    @Test("two files set aside in the same second: neither over the other")
    func twoSetAsideInOneSecond() throws {
        let file = try StoredFile()
        var kept: [FilePath] = []
        for fill in [UInt8(0x11), 0x22, 0x33] {
            try Self.write([UInt8](repeating: fill, count: 4_096), to: file)
            let opened = try file.open(.concurrentReads)
            kept.append(try #require(opened.setAside))
        }
        #expect(Set(kept).count == 3)
        // Each still holds what it held; a second may begin between two of them.
        #expect(try kept.map { try Array(Data(contentsOf: URL(fileURLWithPath: $0.string)).prefix(1)) } == [[0x11], [0x22], [0x33]])
    }

    @Test("random bytes", arguments: kinds)
    func randomBytes(access: DatabaseFile.Access) throws {
        let file = try StoredFile()
        var generator = SeededRandom(seed: 0xDA3A)
        let bytes = (0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Self.write(bytes, to: file)
        #expect(try Self.expectSetAside(try file.open(access), file) == bytes)
    }

    @Test("another program's SQLite database: left whole beside, not taken over", arguments: kinds)
    func anotherProgramsDatabase(access: DatabaseFile.Access) throws {
        let file = try StoredFile()
        try FileManager.default.createDirectory(atPath: file.path.removingLastComponent().string, withIntermediateDirectories: true)
        try DatabaseQueue(path: file.path.string).write { db in
            try db.execute(sql: "CREATE TABLE bookmark (url TEXT); INSERT INTO bookmark VALUES ('theirs')")
        }
        let bytes = try Self.contents(file)
        let opened = try file.open(access)
        let kept = try Self.expectSetAside(opened, file)
        let theirs = try DatabaseQueue(path: try #require(opened.setAside).string)
        #expect(try theirs.read { db in try String.fetchAll(db, sql: "SELECT url FROM bookmark") } == ["theirs"])
        // Byte for byte, in its own journal mode: a pool switched it to WAL before it was found
        // foreign, before the read-only look first.
        // Compared as a whole: printing two 8 KB arrays when they differ says nothing more.
        let isWhole = kept == bytes
        #expect(isWhole, "the file set aside is not the bytes it was (\(kept.count) bytes, \(bytes.count) before)")
        #expect(try theirs.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    }

    @Test("a file of smfplay's cut short: within its header, and after its first page", arguments: kinds, [50, 4_096 + 100])
    func truncated(access: DatabaseFile.Access, length: Int) throws {
        let file = try StoredFile()
        try file.open(.oneConnection).database.write { db in
            for index in 0..<500 {
                try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [String(repeating: "note \(index) ", count: 20)])
            }
        }
        let bytes = Array(try Self.contents(file).prefix(length))
        try Self.write(bytes, to: file)
        #expect(try Self.expectSetAside(try file.open(access), file) == bytes)
    }

    @Test("an empty file is a new database, nothing set aside")
    func emptyFile() throws {
        let file = try StoredFile()
        try Self.write([], to: file)
        #expect(try file.open(.oneConnection).setAside == nil)
    }

    @Test("asked to replace damage found later, the file is set aside even if it opens")
    func replacingDamage() throws {
        let file = try StoredFile()
        try file.open(.concurrentReads).database.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('old')") }
        let bytes = try Self.contents(file)
        #expect(try Self.expectSetAside(try file.open(.concurrentReads, replacingDamage: true), file) == bytes)
    }

    @Test("asked to replace damage where there is no file yet: nothing is said to be set aside", arguments: kinds)
    func replacingDamageOfNoFile(access: DatabaseFile.Access) throws {
        let file = try StoredFile()
        #expect(try file.open(access, replacingDamage: true).setAside == nil)
    }

    @Test(
        "SQLite's damage and not-a-database errors are damage; others are not, and say SQLite's message, or \"disk full\" where the disk has no room"
    )
    func damageErrors() throws {
        #expect(DatabaseFile.isDamage(DatabaseError(resultCode: .SQLITE_CORRUPT)))
        #expect(DatabaseFile.isDamage(DatabaseError(resultCode: .SQLITE_NOTADB)))
        #expect(!DatabaseFile.isDamage(DatabaseError(resultCode: .SQLITE_BUSY)))
        let full = DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")
        // A folder with room: SQLite's words.
        let roomy = try TemporaryFolder()
        #expect(DatabaseFile.reason(full, file: roomy.filePath("x.sqlite")) == "database or disk is full")
        guard SmallFileSystem.canMount else { return }
        let disk = try SmallFileSystem(kilobytes: 64)
        disk.fill()
        #expect(DatabaseFile.reason(full, file: FilePath(disk.file("x.sqlite"))) == "disk full (no space left on device)")
        let ioError = DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error")
        #expect(DatabaseFile.reason(ioError, file: FilePath(disk.file("x.sqlite"))) == "disk full (no space left on device)")
    }
}
