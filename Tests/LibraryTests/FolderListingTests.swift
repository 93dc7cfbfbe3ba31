import Files
import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Library

#if canImport(Glibc)
    import Glibc
#endif

struct FolderListingTests {
    func names(_ listing: FolderListing) -> [String] {
        listing.entries.map { $0.kind == .folder ? $0.name + "/" : $0.name }
    }

    @Test func foldersFirstThenMIDIFilesInNaturalOrder() throws {
        let folder = try TemporaryFolder()
        for name in ["Op.10 No.1.mid", "Op.9 No.10.MID", "Op.9 No.2.kar", "Étude.rmi", "zeta.smf", "a.midi"] { try folder.create(name) }
        try folder.create("misnamed.bin", midiHeader)
        try folder.create("karaoke.dat", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("RMID".utf8))
        try folder.create("notes.txt", Array("MTh".utf8))
        try folder.create("cover.jpg")
        try folder.create(".hidden.mid")
        try folder.createFolder(".git")
        try folder.createFolder("Preludes 10")
        try folder.createFolder("Preludes 9")
        try folder.createFolder("bach")
        #expect(
            names(try FolderListing(folder: FilePath(folder.path))) == [
                "bach/", "Preludes 9/", "Preludes 10/",
                "a.midi", "Étude.rmi", "karaoke.dat", "misnamed.bin", "Op.9 No.2.kar", "Op.9 No.10.MID", "Op.10 No.1.mid", "zeta.smf",
            ])
    }

    @Test func entriesCarryTheirPaths() throws {
        let folder = try TemporaryFolder()
        try folder.create("Chopin/Ballade.mid")
        let listing = try FolderListing(folder: FilePath(folder.path + "/"))
        #expect(listing.entries.map(\.path) == [folder.filePath("Chopin")])
        #expect(try FolderListing(folder: FilePath(folder.path + "/Chopin")).entries.map(\.path) == [folder.filePath("Chopin/Ballade.mid")])
    }

    @Test func namesInNFCAndNFDSortAlike() throws {
        let folder = try TemporaryFolder()
        // Gymnopédie 10 typed on macOS (NFD), 2 and 3 on Linux (NFC).
        try folder.create("Gymnope\u{301}die 10.mid")
        try folder.create("Gymnop\u{E9}die 2.mid")
        try folder.create("Gymnop\u{E9}die 3.mid")
        try folder.create("Gymnasium.mid")
        #expect(
            names(try FolderListing(folder: FilePath(folder.path))) == ["Gymnasium.mid", "Gymnopédie 2.mid", "Gymnopédie 3.mid", "Gymnopédie 10.mid"])
    }

    @Test("what a folder says of its entries decides nothing it should not: a folder named as a MIDI file is a folder, a pipe so named is left out")
    func entriesNamedAsMIDIFilesAreLookedUpUnlessPlainFiles() throws {
        let folder = try TemporaryFolder()
        try folder.create("plain.mid")
        try folder.create("Sonatas.mid/first.mid")
        #expect(mkfifo(folder.path + "/pipe.mid", 0o600) == 0)
        let entries = try #require(FilePath(folder.path).entries())
        let plain = Dictionary(uniqueKeysWithValues: entries.map { ($0.name.string, $0.isPlainFile) })
        #expect(plain == ["plain.mid": true, "Sonatas.mid": false, "pipe.mid": false])
        #expect(names(try FolderListing(folder: FilePath(folder.path))) == ["Sonatas.mid/", "plain.mid"])
    }

    @Test func linkedFoldersAreShownAndLoopsMarked() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        try folder.create("Bach/a.mid")
        try elsewhere.create("Händel/b.mid")
        try folder.link("Bach/Händel", to: elsewhere.path + "/Händel")
        try folder.link("Bach/up", to: folder.path)
        try folder.link("Bach/self", to: ".")
        try folder.link("Bach/b.mid", to: elsewhere.path + "/Händel/b.mid")
        try folder.link("Bach/dangling.mid", to: folder.path + "/missing.mid")
        try folder.link("Bach/knot", to: "knot")
        let listing = try FolderListing(folder: FilePath(folder.path + "/Bach"))
        #expect(names(listing) == ["Händel/", "self/", "up/", "a.mid", "b.mid"])
        #expect(listing.entries.map(\.isSymbolicLink) == [true, true, true, false, true])
        #expect(listing.entries.map(\.isLoop) == [false, true, true, false, false])
        // Going round the loop, the way back is still marked.
        let round = try FolderListing(folder: FilePath(folder.path + "/Bach/up/Bach"))
        #expect(round.entries.filter(\.isLoop).map(\.name) == ["self", "up"])
    }

    @Test func aFolderThatCannotBeListedSaysWhy() throws {
        let folder = try TemporaryFolder()
        let file = try folder.create("song.mid")
        #expect(throws: FolderListingError(folder: FilePath(folder.path + "/missing"), reason: .missing)) {
            try FolderListing(folder: FilePath(folder.path + "/missing"))
        }
        #expect(throws: FolderListingError(folder: FilePath(file), reason: .notAFolder)) { try FolderListing(folder: FilePath(file)) }
        #expect(FolderListingError(folder: "/m/Bach", reason: .permissionDenied).description == "/m/Bach: cannot open folder: permission denied")
    }

    /// Root reads any folder, so the child process becomes `nobody` first.
    @Test func anUnreadableFolderIsPermissionDenied() async throws {
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o755)
        try folder.create("Locked/song.mid")
        chmod(folder.path + "/Locked", 0o000)
        defer { chmod(folder.path + "/Locked", 0o755) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = folder.path + "/Locked" as String] in
            becomeUnprivilegedUser()
            do {
                let listing = try FolderListing(folder: FilePath(path))
                report("listed \(listing.entries.count) entries")
            } catch {
                report("\(error)")
            }
            var collector = MIDIFileCollector()
            collector.add(path: FilePath(path))
            collector.problems.forEach { report($0.description) }
        }
        #expect(
            standardError(result) == """
                \(folder.path)/Locked: cannot open folder: permission denied
                \(folder.path)/Locked: cannot open folder: permission denied

                """)
    }

    @Test func namesThatAreNotUTF8AreListedAndOpen() throws {
        let folder = try TemporaryFolder()
        // "ショパン" (a folder) and "夜想曲.mid" in Shift-JIS, "Café.mid" in Latin-1: from old archives.
        let chopin: [UInt8] = [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93]
        let nocturne: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8] + Array(".mid".utf8)
        let cafe: [UInt8] = Array("Caf".utf8) + [0xE9] + Array(".mid".utf8)
        let root = folder.filePath
        let folderPath = FilePath(bytes: root.bytes + [UInt8(ascii: "/")] + chopin)
        #expect(folderPath.withPlatformString { mkdir($0, 0o755) } == 0)
        for name in [nocturne, cafe] {
            let file = FilePath(bytes: folderPath.bytes + [UInt8(ascii: "/")] + name)
            try AtomicWrite.write(midiHeader, to: file)
        }
        #expect(names(try FolderListing(folder: root)) == ["ショパン/"])
        let listing = try FolderListing(folder: folderPath)
        #expect(names(listing) == ["Caf\\xE9.mid", "夜想曲.mid"])
        #expect(listing.entries.map { Array($0.path.bytes.dropFirst(folderPath.bytes.count + 1)) } == [cafe, nocturne])
        #expect(listing.entries.allSatisfy { MIDIFileDetector.hasMIDIContent(at: $0.path) })
    }
}
