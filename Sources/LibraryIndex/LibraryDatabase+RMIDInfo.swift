import Files
import Foundation
import GRDB
import SystemPackage

/// The rows made before RMID files' INFO artists, albums and genres were indexed (see the
/// migration "the artist, album and genre of RMID files" and ``IndexedFile/isIndexedBeforeRMIDInfo``).
extension LibraryIndexReading {
    /// Whether any file under `folder` was indexed before RMID files' INFO texts were: an update
    /// then reads again those that are RMID files. At once, through the partial index on them.
    public func hasFilesIndexedBeforeRMIDInfo(under folder: FilePath) throws(LibraryIndexError) -> Bool {
        let range = PathRange(folder: folder)
        return try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM file WHERE before_rmid_info = 1 AND path >= ? AND path < ?)",
                arguments: [range.lower, range.upper]) ?? false
        }
    }
}

extension LibraryDatabase {
    /// Unmarks rows found to be of files that are no RMID files: nothing of theirs is missing.
    func clearIndexedBeforeRMIDInfo(_ ids: [Int64]) throws(LibraryIndexError) {
        guard !ids.isEmpty else { return }
        try write { db in
            // As many a statement as `LibraryIndexer` removes: far below SQLite's limit on its length.
            for start in stride(from: 0, to: ids.count, by: 500) {
                let list = ids[start..<min(start + 500, ids.count)].map(String.init).joined(separator: ",")
                try db.execute(sql: "UPDATE file SET before_rmid_info = 0 WHERE id IN (\(list))")
            }
        }
    }
}
