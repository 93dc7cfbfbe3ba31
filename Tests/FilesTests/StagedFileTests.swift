import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Files

#if canImport(Glibc)
    import Glibc
#endif

struct StagedFileTests {
    /// A file named `name` in `folder` holding `old`, and a staged new version holding `new`.
    static func stage(_ new: [UInt8], over old: [UInt8], named name: String, in folder: TemporaryFolder) throws -> (FilePath, StagedFile) {
        let path = folder.filePath(name)
        try AtomicWrite.write(old, to: path)
        let file = try StagedFile(destination: path)
        try file.write(new)
        return (path, file)
    }

    /// The guarantee itself: a writer killed after writing and before the rename (SIGKILL, which
    /// nothing can catch or clean up after) leaves the old file whole, and at most a hidden
    /// temporary file beside it, which the next write does not trip over.
    @Test func aWriterKilledBetweenWriteAndRenameLeavesTheOldFileWhole() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("state.db")
        try AtomicWrite.write(Array("old contents".utf8), to: FilePath(path))
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let file = try StagedFile(destination: FilePath(path))
            try file.write([UInt8](repeating: 7, count: 100_000))
            kill(getpid(), SIGKILL)
            try file.commit()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old contents")
        let names = try folder.contents()
        #expect(names.count == 2)
        let leftOver = try #require(names.first { $0 != "state.db" })
        #expect(leftOver.hasPrefix(".state.db.part-"))

        try AtomicWrite.write(Array("new".utf8), to: FilePath(path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    @Test func nothingAppearsUntilTheCommit() throws {
        let folder = try TemporaryFolder()
        let path = folder.filePath("song.wav")
        let file = try StagedFile(destination: path)
        try file.write(Array("RIFF".utf8))
        #expect(SmallFile.readOrNil(path) == nil)
        #expect(try folder.contents() == [file.temporaryPath.lastComponent!.string])
        try file.commit()
        #expect(SmallFile.readOrNil(path) == Array("RIFF".utf8))
        #expect(try folder.contents() == ["song.wav"])
    }

    @Test func aDiscardedOrDroppedFileLeavesNothing() throws {
        let folder = try TemporaryFolder()
        let (path, discarded) = try Self.stage([2], over: [1], named: "song.wav", in: folder)
        discarded.discard()
        do {
            let dropped = try StagedFile(destination: path)
            try dropped.write([3])
        }
        #expect(SmallFile.readOrNil(path) == [1])
        #expect(try folder.contents() == ["song.wav"])
    }

    @Test func aNewFileNeverReplacesOneThere() throws {
        let folder = try TemporaryFolder()
        let (taken, file) = try Self.stage([2], over: [1], named: "Song.mid", in: folder)
        #expect(try file.commit(asNewFile: taken) == false)
        let free = folder.filePath("Song (2).mid")
        #expect(try file.commit(asNewFile: free))
        #expect(SmallFile.readOrNil(taken) == [1])
        #expect(SmallFile.readOrNil(free) == [2])
        #expect(try folder.contents() == ["Song (2).mid", "Song.mid"])
    }

    @Test func theUsersPermissionsAreTheCallers() throws {
        let folder = try TemporaryFolder()
        let personal = folder.filePath("state.db")
        let file = try StagedFile(destination: personal, permissions: .ownerReadWrite)
        try file.commit()
        #expect(try personal.stat().permissions == .ownerReadWrite)
    }
}
