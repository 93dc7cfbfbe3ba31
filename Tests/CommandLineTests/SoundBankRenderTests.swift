import AudioOutput
import Foundation
import SMF
import SoundComparison
import SystemPackage
import TestSupport
import Testing

/// `smfplay render --soundfont` with sound banks the tests write (`TestSoundBank`): a DLS file alone
/// and stacked over FluidR3_GM renders with the bank's sound, as its SoundFont 2 twin does.
@Suite("smfplay render: DLS and SoundFont 3 banks")
struct SoundBankRenderTests {
    static let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    static let bank = TestSoundBank(presets: [
        .init("Test Sine", program: 0, waveform: .sine),
        .init("Test Square", program: 1, waveform: .square),
        .drumKit("Test Noise Kit"),
    ])

    /// A sine melody (program 0) with noise drums for 2 s; then, from 2 to 3 s, A4 on a violin
    /// (program 40), which the test bank has not. End of Track at 3.2 s.
    static let song = EmbeddedBankRenderTests.song(melodyBank: 0)

    /// Where the first note, A4, sounds alone (0.11–0.2 s): the kick under it has stopped, cut at
    /// its note-off (0.1 s) as DLS notes are (see `SoundBankReleaseTests`).
    static let melodyAlone = 0.11

    /// The second harmonic of A4 against the fundamental, in dB: a sine has none (below -60 dB
    /// from the bank), FluidR3_GM's violin has it at -15 dB.
    static func secondHarmonic(_ audio: [Float], at start: Double, size: Int = 16_384) -> Double {
        let shares = PowerSpectrum(stereo: audio, start: start, size: size).harmonicShares(fundamental: 440, count: 2)
        return 10 * log10(max(shares[1], 1e-30) / max(shares[0], 1e-30))
    }

    /// Renders the song with `soundFonts` (each a `--soundfont`), and reads the audio back.
    static func render(_ sandbox: Sandbox, _ soundFonts: [String], output: String) throws -> (audio: [Float], result: Command.Result) {
        let options = soundFonts.flatMap { ["--soundfont", $0] }
        let result = try sandbox.run(["render", "song.mid", "-o", output, "--tail", "0"] + options)
        #expect(result.succeeded, "\(result)")
        return (try AudioFileReader(path: FilePath(sandbox.path(output))).readAll(), result)
    }

    @Test("--soundfont bank.dls renders with the bank's sound, as its .sf2 and .sf3 twins do, and not as FluidR3_GM")
    func dlsAlone() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3), "\(Self.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song)
        for format in TestSoundBank.Format.allCases {
            try Self.bank.write(format, to: sandbox.path("bank.\(format.fileExtension)"))
        }
        let dls = try Self.render(sandbox, ["bank.dls"], output: "dls.wav")
        // The melody's first note, A4: a sine.
        let melody = Self.secondHarmonic(dls.audio, at: Self.melodyAlone, size: 4_096)
        #expect(melody < -50, "second harmonic at \(melody) dB")
        // The violin is missing from the bank: the bank's bank-0 program 0 (the sine) plays it, and render says so.
        #expect(Self.secondHarmonic(dls.audio, at: 2.2) < -50, "\(Self.secondHarmonic(dls.audio, at: 2.2)) dB")
        // Programs are named as people count them, from 1: the violin is 41.
        #expect(dls.result.stderr.contains("bank 0 program 41: bank 0 program 1 plays instead"), "the substitution is named: \(dls.result)")

        for twin in ["sf2", "sf3"] {
            let other = try Self.render(sandbox, ["bank.\(twin)"], output: "\(twin).wav")
            let comparison = SoundComparison(candidate: dls.audio, reference: other.audio, sampleRate: 44_100)
            // Measured: similarity 0.97, level within 0.11 dB (the DLS notes stop at once where the twins' release).
            #expect(comparison.mismatches().isEmpty, ".dls against .\(twin): \(comparison.mismatches())")
        }
        // The wrong rendering fails: FluidR3_GM's piano, violin and drums are another sound.
        let fluid = try Self.render(sandbox, [Self.fluidR3], output: "fluid.wav")
        let wrong = SoundComparison(candidate: fluid.audio, reference: dls.audio, sampleRate: 44_100)
        #expect(wrong.spectralSimilarity < 0.85, "FluidR3_GM against the DLS bank: \(wrong)")
    }

    @Test("--soundfont bank.dls --soundfont FluidR3_GM: the bank plays what it has, FluidR3_GM the violin")
    func dlsStackedOverFluidR3() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3), "\(Self.fluidR3) is missing: run `make deps`")
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song)
        try Self.bank.write(.downloadableSounds, to: sandbox.path("bank.dls"))
        let stacked = try Self.render(sandbox, ["bank.dls", Self.fluidR3], output: "stacked.wav")
        #expect(stacked.result.stderr.isEmpty, "no substitution: \(stacked.result)")
        let melody = Self.secondHarmonic(stacked.audio, at: Self.melodyAlone, size: 4_096)
        #expect(melody < -50, "the melody is the bank's sine: second harmonic at \(melody) dB")
        let violin = Self.secondHarmonic(stacked.audio, at: 2.2)
        #expect(violin > -30, "the violin is FluidR3_GM's: second harmonic at \(violin) dB")

        // The melody and drums (the first 2 s) sound as with the bank alone; the whole song does not.
        let alone = try Self.render(sandbox, ["bank.dls"], output: "alone.wav")
        let twoSeconds = 2 * 2 * 44_100
        let start = SoundComparison(
            candidate: Array(stacked.audio.prefix(twoSeconds)), reference: Array(alone.audio.prefix(twoSeconds)), sampleRate: 44_100)
        #expect(start.mismatches().isEmpty, "\(start.mismatches())")
        let whole = SoundComparison(candidate: stacked.audio, reference: alone.audio, sampleRate: 44_100)
        #expect(!whole.mismatches().isEmpty, "the violin sounds as the sine: \(whole)")
    }
}
