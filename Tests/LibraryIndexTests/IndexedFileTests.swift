import Foundation
import GRDB
import SystemPackage
import TestSupport
import Testing

@testable import LibraryIndex

/// An indexed file's row as written and read back.
struct IndexedFileTests {
    /// Every field is written: the row is encoded column by column, not through `Encodable`, so a
    /// field added to the record and forgotten in `encode(to:)` would come back empty.
    @Test func everyFieldIsWritten() throws {
        let folder = try TemporaryFolder()
        let database = try LibraryDatabase(path: FilePath(folder.file("library.sqlite")))
        let file = IndexedFile(
            id: 7, path: Data("/music/a.mid".utf8), size: 1234, modifiedNanoseconds: 5_000_000_001, inode: 99, problem: "none",
            duration: 61.5, format: 1, trackCount: 9, channels: "1,10", noteCount: 3000, programs: "1,49", mode: "gs", title: "Title",
            artist: "Artist", album: "Album", genre: "Genre", copyright: "(C)", hasLyrics: true, words: "la la",
            searchName: "a", isComplete: false, isIndexedBeforeRMIDInfo: true, textEncoding: "shift-jis")
        try database.write { db in try file.insert(db) }
        let read = try database.read { db in try IndexedFile.fetchOne(db, key: 7) }
        #expect(read == file)
        // And every field has a column.
        #expect(Mirror(reflecting: file).children.count == IndexedFile.CodingKeys.allCases.count)
    }
}
