import Foundation
import GRDB
import Storage
import SystemPackage
import TestSupport

/// A database file of smfplay's in a temporary folder, with one table of its own, opened as the
/// library index or the resume state opens theirs.
struct StoredFile {
    let folder: TemporaryFolder
    /// Inside a folder not made yet.
    let path: FilePath

    init() throws {
        folder = try TemporaryFolder()
        path = folder.filePath("state/smfplay.sqlite")
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("notes") { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        return migrator
    }()

    func open(_ access: DatabaseFile.Access, replacingDamage: Bool = false) throws -> DatabaseFile.Opened {
        try DatabaseFile.open(path, access: access, migrator: Self.migrator, replacingDamage: replacingDamage)
    }

    /// The notes a database holds.
    static func notes(_ database: any DatabaseWriter) throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY id") }
    }

    /// The names in the file's folder, the file's own as `FILE`.
    func names() throws -> [String] {
        let name = path.lastComponent!.string
        return try FileManager.default.contentsOfDirectory(atPath: path.removingLastComponent().string).sorted().map {
            $0.replacingOccurrences(of: name, with: "FILE")
        }
    }
}
