import Files
import Foundation
import SMF
import SystemPackage
import Testing

@testable import LibraryIndex

/// Files the index could not read, and a library folder found empty. A file not read at all (no
/// permission, an I/O error) is read again by the next update, though its size, time and inode
/// stay as they were when only its permissions are mended; a file read and found not to be MIDI
/// is not. A library folder found empty leaves the index as it was.
struct MissingFilesIndexTests {
    @Test func aFileNotReadAtAllIsReadAgainByTheNextUpdate() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        _ = try world.update(database)
        // The ballade as an update that could not open it wrote it (tests run as root, whom no
        // permission stops).
        let ballade = world.rootPath.appending("Chopin/Ballades/Ballade No.4 Op.52.mid")
        let stamp = try #require(IndexStamp(path: ballade))
        let failure = SMFFileError.unreadable(path: ballade, reason: "permission denied")
        let unread = IndexedFile(path: ballade, stamp: stamp, facts: .failure(failure), textEncoding: nil)
        #expect(!unread.isComplete && unread.problem == "\(failure)")
        let search = SearchRow(path: ballade, folder: SearchFolder(relative: "Chopin/Ballades"), facts: nil)
        try LibraryIndexer.write([(unread, search, .changed)], to: database)
        #expect(try world.search(["ballade", "chopin"]).isEmpty)

        let again = try world.update(database)
        #expect(again.updated == 1 && again.unchanged == 6 && again.added == 0, "\(again)")
        #expect(try world.search(["ballade", "chopin"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        let settled = try world.update(database)
        #expect(settled.updated == 0 && settled.unchanged == 7, "\(settled)")
    }

    @Test func aFileReadAndFoundNotMIDIIsLeftUntilItChanges() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        let first = try world.update(database)
        #expect(first.unreadable.count == 1)
        // Its problem names the file once.
        let problem = try #require(first.unreadable.first)
        #expect(problem.components(separatedBy: "not really.mid").count == 2, "\(problem)")
        let second = try world.update(database)
        #expect(second.unreadable.isEmpty && second.unchanged == 7 && second.updated == 0, "\(second)")
    }

    @Test("a library folder found empty (a disk not mounted) leaves the index as it was, and says so")
    func anEmptiedLibraryIsNotForgotten() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        _ = try world.update(database)
        let away = world.folder.file("away")
        try FileManager.default.moveItem(atPath: world.root, toPath: away)
        try FileManager.default.createDirectory(atPath: world.root, withIntermediateDirectories: false)
        #expect(throws: LibraryIndexError.libraryEmptied(path: world.rootPath, indexed: 7, database: database.path)) {
            try world.update(database)
        }
        #expect(try database.fileCount(under: world.rootPath) == 7)
        #expect(try world.search(["ballade", "chopin"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        // Mounted again: nothing to read.
        try FileManager.default.removeItem(atPath: world.root)
        try FileManager.default.moveItem(atPath: away, toPath: world.root)
        #expect(try world.update(database).unchanged == 7)
    }

    @Test("an update stopped while it lists the library's folders changes nothing: the files not listed yet are not gone")
    func anUpdateStoppedWhileListingForgetsNothing() throws {
        let world = try LibraryIndexTests.World()
        let database = try world.database()
        _ = try world.update(database)
        let stopped = try LibraryIndexer(database: database, workers: 2, textEncoding: nil).update(root: world.rootPath, isCancelled: { true })
        #expect(stopped.wasCancelled && stopped.removed == 0 && stopped.found == 0, "\(stopped)")
        #expect(try database.fileCount(under: world.rootPath) == 7)
    }
}
