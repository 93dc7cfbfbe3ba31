import Foundation
import TestSupport
import Testing

/// A first `smfplay index` or `smfplay search` with no library folder: what the library is and
/// how to set it, the music folder offered when it has MIDI files, and nothing indexed.
@Suite("smfplay index and search: no library folder")
struct LibraryFolderTests {
    @Test(
        "no library configured: index and search say what the library is, --library and the library key, and offer ~/Music with its MIDI files; no index is made",
        arguments: ["index", "search"])
    func noLibrary(_ command: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.home + "/Music/Games/stage1.mid", Fixtures.song())
        let result = try sandbox.run(command == "index" ? ["index"] : ["search", "stage"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        for words in [
            "the library is the folder of your MIDI files", sandbox.home + "/Music/MIDI", "--library FOLDER",
            "library = \"FOLDER\" in \(sandbox.configHome)/smfplay/config.toml",
            "\(sandbox.home)/Music holds MIDI files: --library \(sandbox.home)/Music",
        ] {
            #expect(result.stderr.contains(words), "'\(words)' is not in: \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome + "/smfplay/library.sqlite"), "an index was made")
    }

    @Test("a music folder without MIDI files is not offered")
    func musicWithoutMIDIFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.home + "/Music/song.flac", [0])
        let result = try sandbox.run(["index"])
        #expect(result.status == 1 && result.stderr.contains("--library FOLDER"), "\(result)")
        #expect(!result.stderr.contains("holds MIDI files"), "\(result)")
    }

    @Test("--library naming no folder (or a file), and the configuration's library naming none: each said so, with where it came from")
    func namedLibraryMissing() throws {
        let sandbox = try Sandbox()
        let given = try sandbox.run(["search", "x", "--library", sandbox.root + "/nope"])
        #expect(given.status == 1 && given.stderrLines == ["smfplay: \(sandbox.root)/nope: no such folder (--library)"], "\(given)")
        try sandbox.write("song.mid", Fixtures.song())
        let file = try sandbox.run(["index", "--library", sandbox.path("song.mid")])
        #expect(file.status == 1 && file.stderrLines == ["smfplay: \(sandbox.path("song.mid")): not a folder (--library)"], "\(file)")
        let configuration = try sandbox.writeUserConfiguration("library = \"\(sandbox.root)/gone\"\n")
        let configured = try sandbox.run(["index"])
        #expect(
            configured.status == 1 && configured.stderrLines == ["smfplay: \(sandbox.root)/gone: no such folder (library in \(configuration))"],
            "\(configured)")
    }
}
