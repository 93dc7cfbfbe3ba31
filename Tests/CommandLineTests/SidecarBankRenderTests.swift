import AudioOutput
import Foundation
import SMF
import SoundComparison
import SystemPackage
import TestSupport
import Testing

/// `smfplay render` of songs with a sound bank beside them: heard over the stack as the same bank
/// given with `--soundfont` would be, not with `--no-sidecar`, and a damaged one is one warning.
@Suite("smfplay render: a sound bank beside the song")
struct SidecarBankRenderTests {
    typealias Banks = EmbeddedBankRenderTests

    @Test("song.mid with song.sf2 beside it renders as --soundfont song.sf2 over the stack does; --no-sidecar renders with the stack alone")
    func sidecarIsHeard() throws {
        try #require(FileManager.default.fileExists(atPath: Banks.fluidR3), "\(Banks.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        try sandbox.write("album/song.mid", Banks.song(melodyBank: 0))
        try Banks.bank.write(.soundFont2, to: sandbox.path("album/Song.SF2"))
        let sidecar = try Banks.render(sandbox, "album/song.mid", [Banks.fluidR3], output: "sidecar.wav")
        #expect(sidecar.stderr.isEmpty, "\(sidecar.stderr)")
        let byHand = try Banks.render(sandbox, "album/song.mid", ["album/Song.SF2", Banks.fluidR3, "--no-sidecar"], output: "by-hand.wav")
        let comparison = SoundComparison(candidate: sidecar.audio, reference: byHand.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")

        let without = try Banks.render(sandbox, "album/song.mid", [Banks.fluidR3, "--no-sidecar"], output: "without.wav")
        let wrong = SoundComparison(candidate: without.audio, reference: byHand.audio, sampleRate: 44_100)
        #expect(!wrong.mismatches().isEmpty, "--no-sidecar still heard the bank: \(wrong)")
    }

    /// Game-music rips come zipped with their banks: a bank beside the song in the archive is
    /// heard as beside it on disk (it was not looked for), and `info` names it.
    @Test("song.mid with song.sf2 beside it in a ZIP renders as the two files on disk do; info names the bank")
    func sidecarInAnArchive() throws {
        try #require(FileManager.default.fileExists(atPath: Banks.fluidR3), "\(Banks.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        let song = Banks.song(melodyBank: 0)
        try sandbox.write("rip/song.mid", song)
        try Banks.bank.write(.soundFont2, to: sandbox.path("rip/song.sf2"))
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: Array("BGM/song.mid".utf8), data: song))
        zip.add(ZIPWriter.Member(name: Array("BGM/song.sf2".utf8), data: try Banks.bank.bytes(.soundFont2)))
        try sandbox.write("rip.zip", zip.encode())
        try Banks.expectSameSound(sandbox, archived: "rip.zip/BGM/song.mid", asOnDisk: "rip/song.mid")
        let info = try sandbox.run(["info", "rip.zip/BGM/song.mid"])
        #expect(info.stdoutLines.contains { $0.contains("Sound bank song.sf2 beside it, SF2") && $0.hasSuffix("(same name)") }, "\(info)")
    }

    @Test("a damaged bank beside the song: one warning naming it, and the song renders with the stack")
    func damagedSidecarIsOneWarning() throws {
        try #require(FileManager.default.fileExists(atPath: Banks.fluidR3), "\(Banks.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        try sandbox.write("album/song.mid", Banks.song(melodyBank: 0))
        try sandbox.write("album/song.sf2", Banks.damagedBank())
        let damaged = try Banks.render(sandbox, "album/song.mid", [Banks.fluidR3], output: "damaged.wav")
        let warnings = damaged.stderr.split(separator: "\n").filter { $0.contains("song.sf2") }
        #expect(warnings.count == 1 && warnings[0].contains("is not used, the song plays without it"), "\(damaged.stderr)")
        let stack = try Banks.render(sandbox, "album/song.mid", [Banks.fluidR3, "--no-sidecar"], output: "stack.wav")
        let comparison = SoundComparison(candidate: damaged.audio, reference: stack.audio, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")
    }
}
