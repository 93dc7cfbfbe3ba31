import Foundation
import GRDB
import SMF
import Storage
import SystemPackage
import Testing

@testable import LibraryIndex

/// RMID files' INFO artist, album and genre in the index: searched, given with the results, and
/// taken into an index made before they were.
struct RMIDInfoIndexTests {
    typealias World = LibraryIndexTests.World

    /// An RMID file of a plain song titled `title` (by its track name: the INFO has no title), with
    /// `artist`, `album` and `genre` in its INFO.
    static func rmid(title: String, artist: String, album: String, genre: String) -> Data {
        let texts: [RMIDInfo.Field: [UInt8]] = [.artist: Array(artist.utf8), .album: Array(album.utf8), .genre: Array(genre.utf8)]
        return Data(RMIDWriter(texts: texts, textEncoding: "utf-8").encode(song: Array(LibraryIndexTests.midi(title: title))))
    }

    /// Two RMID files by Chopin in a folder that does not say so, one of them named `.mid`.
    static func addNocturnes(to world: World) throws {
        try world.write("Nocturnes/Op.9 No.2.rmi", rmid(title: "Nocturne in E-flat", artist: "Chopin", album: "Trois Nocturnes", genre: "Romantic"))
        try world.write("Nocturnes/Op.48 No.1.mid", rmid(title: "Nocturne in C minor", artist: "Chopin", album: "Deux Nocturnes", genre: "Romantic"))
    }

    @Test("an RMID file's artist, album and genre find it, and come with the results")
    func searchedAndShown() throws {
        let world = try World()
        try Self.addNocturnes(to: world)
        _ = try world.update()
        let byArtist = try world.search(["chopin"])
        #expect(byArtist.contains("Nocturnes/Op.9 No.2.rmi") && byArtist.contains("Nocturnes/Op.48 No.1.mid"), "\(byArtist)")
        #expect(try world.search(["romantic"]) == ["Nocturnes/Op.9 No.2.rmi", "Nocturnes/Op.48 No.1.mid"], "by genre")
        #expect(try world.search(["deux"]) == ["Nocturnes/Op.48 No.1.mid"], "by album")
        #expect(try world.search(["chopin", "e-flat"]) == ["Nocturnes/Op.9 No.2.rmi"], "artist and title together")
        let result = try #require(
            try world.database().search(SearchQuery(words: ["e-flat"], folder: world.rootPath)).first)
        #expect(result.title == "Nocturne in E-flat" && result.artist == "Chopin" && result.album == "Trois Nocturnes" && result.genre == "Romantic")
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains(#""artist":"Chopin""#), "\(json)")
    }

    /// The name the last migration before RMID INFO texts has (LibraryDatabase.migrator).
    static let lastMigrationBefore = "the text encoding of each file"

    /// An index as smfplay made it before RMID INFO texts were indexed: its tables, and a row for
    /// each file of `world` with what it read then (the title, in the full-text index too).
    static func makeOldIndex(of world: World, titles: [String: String]) throws {
        try FileManager.default.createDirectory(atPath: world.folder.file("index"), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: world.databasePath)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = \(DatabaseFile.applicationID)") }
        try LibraryDatabase.migrator.migrate(queue, upTo: lastMigrationBefore)
        try queue.write { db in
            for (id, (relative, title)) in titles.sorted(by: { $0.key < $1.key }).enumerated() {
                let path = FilePath(world.root + "/" + relative)
                let stamp = try #require(IndexStamp(path: path))
                let name = SearchText.fold(path.stemText)
                let folders = SearchText.fold(LibraryIndexer.relativeFolder(of: path, under: world.rootPath))
                try db.execute(
                    sql: """
                        INSERT INTO file (id, path, size, modified_ns, inode, duration, format, track_count, title, has_lyrics, search_name)
                        VALUES (?, ?, ?, ?, ?, 2.0, 0, 1, ?, 0, ?)
                        """, arguments: [id + 1, Data(path.bytes), stamp.size, stamp.modifiedNanoseconds, stamp.inode, title, name])
                try db.execute(
                    sql: "INSERT INTO search (rowid, name, folders, title, words) VALUES (?, ?, ?, ?, '')",
                    arguments: [id + 1, name, folders, SearchText.fold(title)])
                try db.execute(sql: "INSERT INTO pairs (rowid, name, rest) VALUES (?, ?, '')", arguments: [id + 1, SearchText.letterPairs(of: name)])
            }
        }
    }

    @Test("an index made before opens, says RMID files are to be read again, reads only them, and then finds them by artist")
    func olderIndexIsBroughtUpToDate() throws {
        let world = try World()
        try FileManager.default.removeItem(atPath: world.root)
        try Self.addNocturnes(to: world)
        try world.write("Satie/Gymnopédie No.1.mid", World.song(title: "Gymnopédie"))
        let titles = [
            "Nocturnes/Op.9 No.2.rmi": "Nocturne in E-flat", "Nocturnes/Op.48 No.1.mid": "Nocturne in C minor",
            "Satie/Gymnopédie No.1.mid": "Gymnopédie",
        ]
        try Self.makeOldIndex(of: world, titles: titles)

        let database = try world.database()
        #expect(database.setAside == nil, "the older index is opened, not set aside")
        #expect(try world.search(["gymnopedie"]) == ["Satie/Gymnopédie No.1.mid"], "what it held is searched as it was")
        #expect(try world.search(["chopin"]).isEmpty, "not read for the artist yet")
        #expect(try database.hasFilesIndexedBeforeRMIDInfo(under: world.rootPath))

        let update = try world.update(database)
        #expect(update.readForRMIDInfo == 2 && update.unchanged == 1 && update.added == 0 && update.updated == 0, "\(update)")
        #expect(try world.search(["chopin"]) == ["Nocturnes/Op.48 No.1.mid", "Nocturnes/Op.9 No.2.rmi"], "in the rows' old order")
        #expect(try !database.hasFilesIndexedBeforeRMIDInfo(under: world.rootPath), "the plain song is unmarked without being read")
        let again = try world.update(database)
        #expect(again.readForRMIDInfo == 0 && again.unchanged == 3, "\(again)")
    }
}
