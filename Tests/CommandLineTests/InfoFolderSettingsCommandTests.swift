import Foundation
import TestSupport
import Testing

/// `smfplay info` on songs under folders with `.smfplay.toml` files: what each file sets, and
/// what a broken one says.
@Suite("smfplay info: folder settings")
struct InfoFolderSettingsCommandTests {
    /// A library `lib/` under the sandbox's work folder (the configuration's `library`), with a
    /// folder file at its root, one in `Chopin/`, and one above the library that must not count.
    static func library() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.writeUserConfiguration("library = \"\(sandbox.path("lib"))\"\n")
        try sandbox.write("lib/Chopin/Nocturne.mid", Fixtures.song(title: "Nocturne"))
        try sandbox.write("lib/.smfplay.toml", text: "midi_mode = \"gs\"\ngain = 0.5\n")
        try sandbox.write("lib/Chopin/.smfplay.toml", text: "gain = 0.3\n\n[reverb]\nlevel = 0.4\n")
        try sandbox.write(".smfplay.toml", text: "transpose = 5\n")
        return sandbox
    }

    @Test("each key a folder file sets, with the file that set it (the nearest for each key), and none from above the library")
    func text() throws {
        let sandbox = try Self.library()
        let result = try sandbox.run(["info", "lib/Chopin/Nocturne.mid"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let line = try #require(result.stdoutLines.first { $0.hasPrefix("  Folder settings ") }, "\(result)")
        #expect(
            line == "  Folder settings midi_mode gs (.smfplay.toml), gain 0.3 (Chopin/.smfplay.toml), reverb.level 0.4 (Chopin/.smfplay.toml)")
        // The rows after it keep their column.
        #expect(result.stdoutLines.contains("  Duration   0:01.5"), "\(result)")
    }

    @Test("--json: each key with its value and the folder file's whole path")
    func json() throws {
        let sandbox = try Self.library()
        let result = try sandbox.run(["info", "--json", "lib/Chopin/Nocturne.mid"])
        #expect(result.succeeded, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        let settings = try #require(file["folderSettings"] as? [[String: String]], "\(file)")
        #expect(
            settings == [
                ["key": "midi_mode", "value": "gs", "file": sandbox.path("lib/.smfplay.toml")],
                ["key": "gain", "value": "0.3", "file": sandbox.path("lib/Chopin/.smfplay.toml")],
                ["key": "reverb.level", "value": "0.4", "file": sandbox.path("lib/Chopin/.smfplay.toml")],
            ])
        #expect(file["folderSettingsProblems"] == nil)
    }

    @Test("a broken folder file: its file:line error in the song's report, and the song still reported (status 0)")
    func broken() throws {
        let sandbox = try Self.library()
        try sandbox.write("lib/Chopin/.smfplay.toml", text: "gain = 0.3\ntranpose = 2\n")
        let result = try sandbox.run(["info", "lib/Chopin/Nocturne.mid"])
        #expect(result.succeeded, "\(result)")
        let expected = "  Folder settings \(sandbox.path("lib/Chopin/.smfplay.toml")):2: unknown key 'tranpose' (did you mean 'transpose'?)"
        #expect(result.stdoutLines.contains(expected), "\(result)")
        #expect(InfoCommandTests.field("Title", in: result.stdoutLines) == "Nocturne")
    }
}
