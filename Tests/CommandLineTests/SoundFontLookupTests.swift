import Foundation
import TestSupport
import Testing

/// Finding the SoundFont by name: in the user's data folder, from the configuration, and the
/// message when there is none by that name.
@Suite("smfplay render: SoundFont lookup")
struct SoundFontLookupTests {
    @Test(
        "a name found nowhere: a usage error (64) naming it, every place searched and the SoundFonts there, in render and play alike",
        arguments: ["render", "play"])
    func unknownName(_ command: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let output = command == "render" ? ["-o", "song.wav", "--tail", "0"] : []
        let result = try sandbox.run([command, "song.mid", "--soundfont", "NoSuchFont"] + output)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let message = result.stderr
        #expect(message.contains("'NoSuchFont'"), "\(result)")
        // smfplay names its working folder as the system gives it, symbolic links resolved.
        let workingFolder = URL(fileURLWithPath: sandbox.work).resolvingSymlinksInPath().path
        for place in [workingFolder, sandbox.dataHome + "/smfplay/soundfonts", "/usr/share/sounds/sf2", "/usr/share/sounds/sf3"] {
            #expect(message.contains(place), "\(place) is not in the message: \(result)")
        }
        if FileManager.default.fileExists(atPath: "/usr/share/sounds/sf2/TimGM6mb.sf2") {
            #expect(message.contains("; there: ") && message.contains("TimGM6mb"), "the SoundFonts found are not listed: \(result)")
        }
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test("--soundfont NAME finds NAME.sf2 in $XDG_DATA_HOME/smfplay/soundfonts")
    func nameInTheUserFolder() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let folder = sandbox.dataHome + "/smfplay/soundfonts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/My Piano.sf2", withDestinationPath: Fixtures.soundFont)
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--soundfont", "My Piano", "--tail", "0"])
        #expect(result.succeeded, "\(result)")
        #expect(sandbox.files() == ["song.mid", "song.wav"])
    }

    @Test("the configuration's soundfont is used; one it cannot find is an error naming the configuration file")
    func configuredSoundFont() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let configuration = try sandbox.writeUserConfiguration("soundfont = \"TimGM6mb\"\n")
        let found = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--tail", "0"])
        #expect(found.succeeded, "\(found)")

        try sandbox.writeUserConfiguration("soundfont = \"/missing.sf2\"\n")
        let missing = try sandbox.run(["render", "song.mid", "-o", "other.wav", "--tail", "0"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderrLines.count == 1, "\(missing)")
        #expect(missing.stderr.contains(configuration), "\(missing)")
        #expect(missing.stderr.contains("/missing.sf2"), "\(missing)")
        #expect(!sandbox.exists("other.wav"))
    }
}
