import Foundation
import TestSupport
import Testing

/// An empty argument where a file goes: nearly always a shell variable that is unset
/// (`smfplay play "$SONG"`).
@Suite("empty paths")
struct EmptyPathCommandTests {
    @Test(
        "an empty path is one line naming the problem and usage status 64, before anything is read, played or written",
        arguments: [
            ["play", ""],
            ["play", "song.mid", ""],
            ["render", ""],
            ["render", "", "-o", "out"],
            ["render", "song.mid", "", "-o", "out"],
            ["render", "song.mid", "-o", ""],
            ["info", ""],
            ["info", "song.mid", ""],
            ["lyrics", ""],
            ["thumbnail", "", "song.png"],
            ["thumbnail", "song.mid", ""],
            ["import", "", "--into", "Inbox"],
            ["report", ""],
        ])
    func refused(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["smfplay: an empty path is not a file"], "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    /// `--library ""` read as the working folder: `index` would index it, `search` search it.
    @Test(
        "an empty --library is a usage error naming the option",
        arguments: [
            ["index", "--library", ""],
            ["search", "--library=", "song"],
            ["browse", "--library", ""],
            ["resume", "--library", ""],
        ])
    func emptyLibraryRefused(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--library needs a folder"), "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }
}
