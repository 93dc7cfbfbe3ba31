import Foundation
import Testing
import TestSupport
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

    @Test func aMovedLibraryResolvesUnderItsNewFolder() throws {
        let old = try TemporaryFolder()
        let new = try TemporaryFolder()
        let song = try old.create("Chopin/Ballade No.1.mid")
        let stored = LibraryPath(song, libraryRoot: old.path)
        let outside = LibraryPath("/usr/share/a.mid", libraryRoot: old.path)
        try FileManager.default.moveItem(atPath: old.path + "/Chopin", toPath: new.path + "/Chopin")
        #expect(stored.path(in: new.path) == new.path + "/Chopin/Ballade No.1.mid")
        #expect(stored.located(in: new.path) == new.path + "/Chopin/Ballade No.1.mid")
        #expect(outside.path(in: new.path) == "/usr/share/a.mid")
    }

    @Test func nfcAndNFDNamesAreOnePath() {
        let nfc = LibraryPath("/m/Satie/Gymnop\u{E9}die 1.mid", libraryRoot: "/m")
        let nfd = LibraryPath("/m/Satie/Gymnope\u{301}die 1.mid", libraryRoot: "/m")
        #expect(nfc == nfd)
        #expect(Set([nfc, nfd]).count == 1)
        // The library folder typed one way and the files listed the other way.
        #expect(LibraryPath("/home/zoe\u{301}/M/a.mid", libraryRoot: "/home/zo\u{E9}/M") == .inLibrary("a.mid"))
    }

    @Test func aNameStoredInNFCFindsTheFileNamedInNFD() throws {
        let library = try TemporaryFolder()
        let onDisk = try library.create("Satie/Gymnope\u{301}dies/Gymnope\u{301}die 1.mid")
        let stored = LibraryPath.inLibrary("Satie/Gymnop\u{E9}dies/Gymnop\u{E9}die 1.mid")
        let located = stored.located(in: library.path)
        #expect(Array(located.utf8) == Array(onDisk.utf8))
        #expect(FileManager.default.fileExists(atPath: located))
        // Nothing by that name at all: the expected path, for the caller to report.
        #expect(LibraryPath.inLibrary("Satie/Missing.mid").located(in: library.path) == library.path + "/Satie/Missing.mid")
    }

    @Test func encodesAsOneReadableString() throws {
        let paths: [LibraryPath] = [.inLibrary("Bach/Prélude.mid"), .outside("/tmp/a b.mid")]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(paths)
        #expect(String(decoding: data, as: UTF8.self) == #"["Bach/Prélude.mid","/tmp/a b.mid"]"#)
        #expect(try JSONDecoder().decode([LibraryPath].self, from: data) == paths)
    }

    @Test(arguments: [#""""#, #""../etc/passwd""#, #""Bach//a.mid""#, #""Bach/./a.mid""#, #""Bach/""#])
    func aRelativePathThatLeavesTheLibraryIsRefused(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LibraryPath.self, from: Data(json.utf8)) }
    }
}
