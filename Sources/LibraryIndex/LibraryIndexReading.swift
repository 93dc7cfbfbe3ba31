import GRDB
import Storage
import SystemPackage

/// What can be read from the library index, however it was opened: by ``LibraryDatabase``, which
/// also writes, or by ``ReadyLibraryIndex``, which only reads.
public protocol LibraryIndexReading: Sendable {
    /// The index's file.
    var path: FilePath { get }
    /// The connections reads go through.
    var connections: IndexConnections { get }
}

/// The connections to the index's file that reads go through (nothing to use outside the index).
public struct IndexConnections: Sendable {
    let reader: any DatabaseReader
}

extension LibraryIndexReading {
    func read<Value>(_ body: (Database) throws -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try connections.reader.read(body)
        } catch {
            throw failure(error)
        }
    }

    func failure(_ error: any Error) -> LibraryIndexError {
        if let error = error as? DatabaseError, DatabaseFile.isDamage(error) {
            return .damaged(path: path, reason: DatabaseFile.reason(error, file: path))
        }
        return .database(path: path, reason: DatabaseFile.reason(error, file: path))
    }

    /// How many files the index holds under `folder`.
    public func fileCount(under folder: FilePath) throws(LibraryIndexError) -> Int {
        let range = PathRange(folder: folder)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM file WHERE path >= ? AND path < ?", arguments: [range.lower, range.upper]) ?? 0
        }
    }

    /// Whether the index holds any file under `folder` (at once, however many it holds).
    public func hasFiles(under folder: FilePath) throws(LibraryIndexError) -> Bool {
        let range = PathRange(folder: folder)
        return try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM file WHERE path >= ? AND path < ?)", arguments: [range.lower, range.upper])
                ?? false
        }
    }
}
