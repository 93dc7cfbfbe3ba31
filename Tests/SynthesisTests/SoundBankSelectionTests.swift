import CFluidSynth
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// A preset at bank 5 is heard only when the song selects bank 5, as its standard reads a bank
/// select (`SoundModule`): GS and plain GM by controller 0, XG by controller 32 under MSB 0, GM2 by
/// LSB under MSB 121. The test bank has a sine at bank 0 and a square at bank 5, both program 0:
/// which one sounds says which bank was selected.
@Suite("Bank selection in the sound banks the tests write")
struct SoundBankSelectionTests {
    static let bank = TestSoundBank(presets: [
        .init("Bank 0 Sine", bank: 0, program: 0, waveform: .sine),
        .init("Bank 5 Square", bank: 5, program: 0, waveform: .square),
    ])

    struct Selection: CustomTestStringConvertible, Sendable {
        var mode: MIDIMode
        var msb: UInt8?
        var lsb: UInt8?
        var heard: TestWaveform
        var testDescription: String { "\(mode.displayName) MSB \(msb.map(String.init) ?? "-") LSB \(lsb.map(String.init) ?? "-"): \(heard)" }
    }

    static let selections: [Selection] = [
        Selection(mode: .gs, msb: nil, lsb: nil, heard: .sine),
        Selection(mode: .gs, msb: 5, lsb: nil, heard: .square),
        // The SC-55/88 map in controller 32 is ignored: still bank 0.
        Selection(mode: .gs, msb: 0, lsb: 5, heard: .sine),
        Selection(mode: .gm, msb: 5, lsb: nil, heard: .square),
        Selection(mode: .xg, msb: 0, lsb: 5, heard: .square),
        Selection(mode: .xg, msb: 0, lsb: 0, heard: .sine),
        Selection(mode: .gm2, msb: 121, lsb: 5, heard: .square),
        Selection(mode: .gm2, msb: 121, lsb: 0, heard: .sine),
    ]

    @Test(
        "the square at bank 5 is heard when the song selects bank 5 as its standard does, the sine otherwise",
        arguments: TestSoundBank.Format.allCases, selections)
    func bankSelects(format: TestSoundBank.Format, selection: Selection) throws {
        let folder = try TemporaryFolder()
        let synthesizer = try SoundBankNote.synthesizer([try SoundBankNote.write(Self.bank, format, in: folder)])
        synthesizer.reset(songMode: selection.mode)
        let audio = SoundBankNote.render(synthesizer) { SoundBankNote.select($0, msb: selection.msb, lsb: selection.lsb, program: 0) }
        let spectrum = PowerSpectrum(stereo: audio, start: 0.25)
        #expect(WaveformJudgement.mismatches(spectrum, as: selection.heard, fundamental: 440).isEmpty, "\(format)")
        let other: TestWaveform = selection.heard == .sine ? .square : .sine
        #expect(!WaveformJudgement.mismatches(spectrum, as: other, fundamental: 440).isEmpty, "\(format): heard as a \(other) too")
        // The bank has no drum kit: channel 10's kit is substituted, and only that.
        #expect(synthesizer.substitutions.filter { !$0.isDrumKit }.isEmpty, "\(synthesizer.substitutions)")
    }

    /// A DLS file that places its bank as the DLS specification says (MSB in bits 8–14 of
    /// `ulBank`) reaches FluidSynth as bank 256 × MSB + LSB: libinstpatch passes the field on
    /// unchanged, where no bank select of any standard reaches. smfplay hears it at the MSB, as a
    /// GS variation (`PresetTable`). If the first check fails, libinstpatch or FluidSynth changed
    /// how they read `ulBank`: the README's SoundFonts section says so too.
    @Test("a DLS variation at MSB 5 placed as the DLS specification says is FluidSynth's bank 1280, and the song's bank 5 plays it")
    func specificationBankIsHeardAtItsMSB() throws {
        let folder = try TemporaryFolder()
        let path = FilePath(folder.file("spec.dls"))
        try folder.create("spec.dls", DLSWriter(bank: Self.bank, bankField: .asBankSelectMSB).bytes())
        let instance = try FluidSynthInstance(.init(sampleRate: 44_100, soundFonts: [path]))
        let id = try #require(instance.soundFontIDs[path])
        let soundFont = try #require(fluid_synth_get_sfont_by_id(instance.synth, id))
        var banks: [Int32] = []
        fluid_sfont_iteration_start(soundFont)
        while let preset = fluid_sfont_iteration_next(soundFont) { banks.append(fluid_preset_get_banknum(preset)) }
        #expect(banks.sorted() == [0, 1280])

        let synthesizer = try SoundBankNote.synthesizer([path])
        synthesizer.reset(songMode: .gs)
        let audio = SoundBankNote.render(synthesizer) { SoundBankNote.select($0, msb: 5, program: 0) }
        #expect(WaveformJudgement.mismatches(PowerSpectrum(stereo: audio, start: 0.25), as: .square, fundamental: 440).isEmpty)
        #expect(!WaveformJudgement.mismatches(PowerSpectrum(stereo: audio, start: 0.25), as: .sine, fundamental: 440).isEmpty)
        #expect(synthesizer.substitutions.filter { !$0.isDrumKit }.isEmpty, "\(synthesizer.substitutions)")
    }
}
