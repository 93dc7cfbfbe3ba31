import Files
import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Library

struct LibraryPathTests {
    @Test func filesInsideTheLibraryAreStoredRelativeToIt() {
        #expect(LibraryPath("/home/zoë/Music/MIDI/Bach/a.mid", libraryRoot: "/home/zoë/Music/MIDI") == .inLibrary("Bach/a.mid"))
        #expect(LibraryPath("/home/zoë/Music/MIDI//Bach/./a.mid", libraryRoot: "/home/zoë/Music/MIDI/") == .inLibrary("Bach/a.mid"))
        #expect(LibraryPath("Bach/a.mid", libraryRoot: "/m", workingDirectory: "/m") == .inLibrary("Bach/a.mid"))
    }

    @Test func filesOutsideTheLibraryAreStoredAbsolute() {
        #expect(LibraryPath("/tmp/a.mid", libraryRoot: "/home/zoë/Music/MIDI") == .outside("/tmp/a.mid"))
        #expect(LibraryPath("/home/zoë/Music/MIDI-old/a.mid", libraryRoot: "/home/zoë/Music/MIDI") == .outside("/home/zoë/Music/MIDI-old/a.mid"))
        #expect(LibraryPath("song.mid", libraryRoot: "/m", workingDirectory: "/tmp/x") == .outside("/tmp/x/song.mid"))
        // `..` may leave the library through a link, so such a path stays absolute.
        #expect(LibraryPath("/m/Bach/../../etc/a.mid", libraryRoot: "/m") == .outside("/m/Bach/../../etc/a.mid"))
        #expect(LibraryPath("/m", libraryRoot: "/m") == .outside("/m"))
    }

    @Test func namesKeepTheirBytes() {
        // "ショパン.mid" in Shift-JIS: no String names it, the path still does.
        let name: [UInt8] = [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93] + Array(".mid".utf8)
        let path = LibraryPath(FilePath(bytes: Array("/m/".utf8) + name), libraryRoot: "/m")
        #expect(path == .inLibrary(FilePath(bytes: name)))
        #expect(path.stored.bytes == name)
        #expect(path.description == "ショパン.mid")
    }

    @Test func aMovedLibraryResolvesUnderItsNewFolder() throws {
        let old = try TemporaryFolder()
        let new = try TemporaryFolder()
        let song = try old.create("Chopin/Ballade No.1.mid")
        let stored = LibraryPath(FilePath(song), libraryRoot: old.filePath)
        let outside = LibraryPath("/usr/share/a.mid", libraryRoot: old.filePath)
        try FileManager.default.moveItem(atPath: old.path + "/Chopin", toPath: new.path + "/Chopin")
        #expect(stored.path(in: new.filePath) == new.filePath("Chopin/Ballade No.1.mid"))
        #expect(stored.located(in: new.filePath) == new.filePath("Chopin/Ballade No.1.mid"))
        #expect(outside.path(in: new.filePath) == "/usr/share/a.mid")
    }

    @Test func aNameStoredInNFCFindsTheFileNamedInNFD() throws {
        let library = try TemporaryFolder()
        let onDisk = try library.create("Satie/Gymnope\u{301}dies/Gymnope\u{301}die 1.mid")
        let stored = LibraryPath.inLibrary("Satie/Gymnop\u{E9}dies/Gymnop\u{E9}die 1.mid")
        let located = stored.located(in: library.filePath)
        #expect(located.bytes == Array(onDisk.utf8))
        #expect(FileManager.default.fileExists(atPath: located.string))
        // Nothing by that name at all: the expected path, for the caller to report.
        #expect(LibraryPath.inLibrary("Satie/Missing.mid").located(in: library.filePath) == library.filePath("Satie/Missing.mid"))
    }

    @Test func theStoredFormReadsBack() {
        #expect(LibraryPath(stored: "Bach/Prélude.mid") == .inLibrary("Bach/Prélude.mid"))
        #expect(LibraryPath(stored: "/tmp/a b.mid") == .outside("/tmp/a b.mid"))
        #expect(LibraryPath.inLibrary("Bach/Prélude.mid").stored == "Bach/Prélude.mid")
    }

    @Test(arguments: ["", "../etc/passwd", "Bach/../../a.mid", "Bach/./a.mid"])
    func aRelativePathThatLeavesTheLibraryIsRefused(_ stored: String) {
        #expect(LibraryPath(stored: FilePath(stored)) == nil)
    }
}
