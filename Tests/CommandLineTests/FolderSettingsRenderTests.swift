import AudioOutput
import Foundation
import SMF
import SoundComparison
import SystemPackage
import TestSupport
import Testing

/// `smfplay render` of songs under folders with `.smfplay.toml` files: each song renders with its
/// folder's SoundFonts and transposition, the command line's keys win, and a broken file fails
/// the songs below it with its file and line.
@Suite("smfplay render: folder settings")
struct FolderSettingsRenderTests {
    typealias Banks = EmbeddedBankRenderTests

    /// A4 for a second on program 0.
    static let song = Songs.song(program: 0, notes: [(69, 0, Songs.ticksPerSecond)], length: Songs.ticksPerSecond)

    static func peak(_ audio: [Float]) -> Double {
        PowerSpectrum(stereo: audio, start: 0.3).peakFrequency
    }

    @Test(
        "a folder's soundfont and transpose are heard: the song renders as --soundfont and --transpose render it; the command line's --transpose wins"
    )
    func folderSettingsAreHeard() throws {
        try #require(FileManager.default.fileExists(atPath: Banks.fluidR3), "\(Banks.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        let square = TestSoundBank(presets: [.init("Square", program: 0, waveform: .square)])
        try sandbox.write("Album/fonts/square.sf2", square.bytes(.soundFont2))
        try sandbox.write("Album/.smfplay.toml", Array("soundfont = [\"./fonts/square.sf2\", \"\(Banks.fluidR3)\"]\n".utf8))
        try sandbox.write("Album/Disc 1/.smfplay.toml", Array("transpose = 12\n".utf8))
        try sandbox.write("Album/Disc 1/song.mid", Self.song)
        try sandbox.write("plain.mid", Self.song)

        // No --soundfont: one on the command line would win over the folder's.
        let folder = try Banks.render(sandbox, "Album/Disc 1/song.mid", [], output: "folder.wav")
        #expect(folder.stderr.isEmpty, "\(folder.stderr)")
        let byHand = try Banks.render(
            sandbox, "plain.mid", [sandbox.path("Album/fonts/square.sf2"), Banks.fluidR3, "--transpose=12", "--no-sidecar"], output: "by-hand.wav")
        let comparison = SoundComparison(candidate: folder.audio, reference: byHand.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")
        #expect(abs(Self.peak(folder.audio) - 880) < 10, "the folder's transpose: peak at \(Self.peak(folder.audio)) Hz")

        // The wrong rendering fails: the song without its folders' settings.
        let plain = try Banks.render(sandbox, "plain.mid", [Banks.fluidR3, "--no-sidecar"], output: "plain.wav")
        #expect(!SoundComparison(candidate: plain.audio, reference: byHand.audio, sampleRate: 44_100).mismatches().isEmpty)

        // The command line's --transpose wins over the folder's; the folder's SoundFonts still play.
        let commandLine = try Banks.render(sandbox, "Album/Disc 1/song.mid", ["--transpose=0"], output: "command-line.wav")
        #expect(abs(Self.peak(commandLine.audio) - 440) < 10, "--transpose 0: peak at \(Self.peak(commandLine.audio)) Hz")
    }

    @Test("a folder file with a misspelt key fails the songs below it, naming the file and line; loops = \"inf\" says it would never end")
    func brokenFolderFileFailsItsSongs() throws {
        let sandbox = try Sandbox()
        try sandbox.write("lib/Bad/.smfplay.toml", Array("gain = 0.3\ntranspos = 2\n".utf8))
        try sandbox.write("lib/Bad/song.mid", Self.song)
        try sandbox.write("lib/Endless/.smfplay.toml", Array("loops = \"inf\"\n".utf8))
        try sandbox.write("lib/Endless/song.mid", Self.song)
        try sandbox.write("lib/Good/song.mid", Self.song)
        let result = try sandbox.run(["render", "lib", "-o", "out", "--soundfont", TestSoundFont.required().string])
        #expect(result.status == 1, "\(result)")
        // Each line names the song that failed, then the file at fault.
        #expect(
            result.stderrLines.contains {
                $0.hasPrefix("smfplay: lib/Bad/song.mid: ")
                    && $0.hasSuffix(".smfplay.toml:2: unknown key 'transpos' (did you mean 'transpose'?)")
            }, "\(result.stderr)")
        #expect(
            result.stderrLines.contains {
                $0.hasPrefix("smfplay: lib/Endless/song.mid: ")
                    && $0.contains("loops = \"inf\" in \(sandbox.path("lib/Endless/.smfplay.toml")) would never end a render")
            }, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("out/Good/song.wav")), "the good song was rendered: \(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("out/Bad/song.wav")))
    }
}
