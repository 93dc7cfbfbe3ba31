import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// A bank found beside a song, loaded by a real FluidSynth on top of the stack (TimGM6mb): heard
/// at its own bank numbers where it has a preset, the stack elsewhere; a damaged one leaves the
/// song to the stack, with the reason.
@Suite("Sidecar banks: what is heard")
struct SidecarBankSoundTests {
    static let bank = TestSoundBank(presets: [.init("Sidecar Sine", program: 0, waveform: .sine)])

    private func synthesizer(songAt song: FilePath) throws -> Synthesizer {
        let stack = SoundFontStack([try TestSoundFont.required()]).with(songBank: SongBankLookup().bank(forSongAt: song, embedded: nil))
        return try Synthesizer(settings: SoundBankNote.settings, soundFonts: stack)
    }

    private func presetName(_ synthesizer: Synthesizer, program: UInt8) throws -> String {
        SoundBankNote.select(synthesizer, program: program)
        return try #require(synthesizer.activity.preset(part: 0).flatMap(synthesizer.name(of:)))
    }

    @Test("the bank beside the song plays its program 0 as a sine, at bank 0; the stack plays the rest", arguments: TestSoundBank.Format.allCases)
    func sidecarIsHeard(format: TestSoundBank.Format) throws {
        let folder = try TemporaryFolder()
        try folder.create("Song.mid", SidecarBankLookupTests.song)
        try Self.bank.write(format, to: folder.file("song.\(format.fileExtension.uppercased())"))
        let synthesizer = try synthesizer(songAt: folder.filePath("Song.mid"))
        #expect(synthesizer.songBankProblem == nil)
        #expect(try presetName(synthesizer, program: 0) == "Sidecar Sine")
        let audio = SoundBankNote.render(synthesizer)
        let spectrum = PowerSpectrum(stereo: audio, start: 0.25)
        #expect(WaveformJudgement.mismatches(spectrum, as: .sine, fundamental: 440).isEmpty, "\(format): the sidecar's sine")
        // Program 1 is the stack's (TimGM6mb's second piano).
        let stackOnly = try Synthesizer(settings: SoundBankNote.settings, soundFonts: SoundFontStack([TestSoundFont.path]))
        #expect(try presetName(synthesizer, program: 1) == presetName(stackOnly, program: 1))
    }

    @Test("a damaged bank beside the song is named by the lookup; its load fails with the reason and the stack plays the song")
    func damagedSidecarLeavesTheStack() throws {
        let folder = try TemporaryFolder()
        try folder.create("Song.mid", SidecarBankLookupTests.song)
        // A SoundFont cut to its first 200 bytes.
        let cut = Array(try Self.bank.bytes(.soundFont2).prefix(200))
        let bankPath = try FilePath(folder.create("Song.sf2", cut))
        let found = try #require(SongBankLookup().sidecar(forSongAt: folder.filePath("Song.mid")))
        #expect(found == SongBankChoice(bank: SongSoundBank(file: bankPath), reason: .sameName))

        let synthesizer = try synthesizer(songAt: folder.filePath("Song.mid"))
        let problem = try #require(synthesizer.songBankProblem)
        guard case .songBankNotLoaded(found.bank, because: .notASoundFont(bankPath, let reason)) = problem else {
            Issue.record("\(problem)")
            return
        }
        #expect(reason.hasPrefix("it is cut short"), "\(reason)")
        #expect(problem.description.hasPrefix("\(bankPath.text) is not used, the song plays without it: "), "\(problem)")
        let stackOnly = try Synthesizer(settings: SoundBankNote.settings, soundFonts: SoundFontStack([TestSoundFont.path]))
        #expect(try presetName(synthesizer, program: 0) == presetName(stackOnly, program: 0))
    }
}
