import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// The sound banks the tests write (`TestSoundBank`), in each format, load through smfplay's
/// synthesizer and sound as their waveforms: so that a test hearing a sine knows the bank it
/// wrote is playing, not a GM SoundFont behind it.
@Suite("Sound banks the tests write: SF2, SF3, DLS")
struct TestSoundBankSoundTests {
    static let bank = TestSoundBank(presets: [
        .init("Test Sine", program: 0, waveform: .sine),
        .init("Test Square", program: 1, waveform: .square),
        .init("Test Sawtooth", program: 2, waveform: .sawtooth),
        .drumKit("Test Noise Kit"),
    ])
    static let pitched: [(program: UInt8, waveform: TestWaveform)] = [(0, .sine), (1, .square), (2, .sawtooth)]

    @Test(
        "each preset sounds as its waveform, held past its sample's end (the loop plays), at the pitch of its key",
        arguments: TestSoundBank.Format.allCases)
    func presetsSoundAsTheirWaveforms(format: TestSoundBank.Format) throws {
        let folder = try TemporaryFolder()
        let path = try SoundBankNote.write(Self.bank, format, in: folder)
        let synthesizer = try SoundBankNote.synthesizer([path])
        for (program, waveform) in Self.pitched {
            for (key, frequency) in [(UInt8(69), 440.0), (81, 880), (57, 220)] {
                synthesizer.reset()
                // Held 0.6 s and read from 0.25 s on: the samples last 0.2 s, so what is heard is the loop.
                let audio = SoundBankNote.render(synthesizer, key: key) { SoundBankNote.select($0, program: program) }
                let spectrum = PowerSpectrum(stereo: audio, start: 0.25)
                #expect(
                    abs(spectrum.peakFrequency - frequency) < 2 * spectrum.binWidth,
                    "\(format) \(waveform) key \(key): peak at \(spectrum.peakFrequency) Hz")
                let reasons = WaveformJudgement.mismatches(spectrum, as: waveform, fundamental: frequency)
                #expect(reasons.isEmpty, "\(format) \(waveform) key \(key): \(reasons)")
                #expect(SoundBankNote.rms(audio, from: 0.25, to: 0.6) > 0.01, "\(format) \(waveform) key \(key): the loop is heard")
            }
        }
    }

    @Test("the drum kit plays noise on channel 10, on every key", arguments: TestSoundBank.Format.allCases)
    func drumKitPlaysNoise(format: TestSoundBank.Format) throws {
        let folder = try TemporaryFolder()
        let synthesizer = try SoundBankNote.synthesizer([try SoundBankNote.write(Self.bank, format, in: folder)])
        for key: UInt8 in [36, 38, 42] {
            synthesizer.reset()
            let audio = SoundBankNote.render(synthesizer, channel: 9, key: key, held: 0.4)
            let reasons = WaveformJudgement.mismatches(PowerSpectrum(stereo: audio, start: 0), as: .noise, fundamental: 0)
            #expect(reasons.isEmpty, "\(format) key \(key): \(reasons)")
            #expect(synthesizer.program(channel: 9).bank == 128)
        }
    }

    /// The wrong-rendering check: the same judgement fails FluidR3_GM's instruments for the same
    /// programs and keys (piano, bright piano, electric grand; its standard kit's kick), so a pass
    /// above is the test bank's sound and not any instrument's.
    @Test("FluidR3_GM's same programs and drum key fail the judgement the test bank passes")
    func fluidR3SoundsOtherwise() throws {
        let synthesizer = try SoundBankNote.synthesizer([SoundBankNote.fluidR3])
        for (program, waveform) in Self.pitched {
            synthesizer.reset()
            let audio = SoundBankNote.render(synthesizer) { SoundBankNote.select($0, program: program) }
            let reasons = WaveformJudgement.mismatches(PowerSpectrum(stereo: audio, start: 0.25), as: waveform, fundamental: 440)
            #expect(!reasons.isEmpty, "FluidR3_GM's program \(program) passes as a \(waveform)")
        }
        synthesizer.reset()
        let kick = SoundBankNote.render(synthesizer, channel: 9, key: 36, held: 0.4)
        #expect(
            !WaveformJudgement.mismatches(PowerSpectrum(stereo: kick, start: 0), as: .noise, fundamental: 0).isEmpty,
            "FluidR3_GM's kick passes as noise")
        // And the waves are told from each other: the sine's rendering is no square or sawtooth.
        let folder = try TemporaryFolder()
        let ours = try SoundBankNote.synthesizer([try SoundBankNote.write(Self.bank, .soundFont2, in: folder)])
        let sine = PowerSpectrum(stereo: SoundBankNote.render(ours) { SoundBankNote.select($0, program: 0) }, start: 0.25)
        for waveform: TestWaveform in [.square, .sawtooth, .noise] {
            #expect(!WaveformJudgement.mismatches(sine, as: waveform, fundamental: 440).isEmpty, "the sine passes as a \(waveform)")
        }
    }

    @Test("stacked over FluidR3_GM, the test bank plays the programs it has, and FluidR3_GM the rest", arguments: TestSoundBank.Format.allCases)
    func stackedOverFluidR3(format: TestSoundBank.Format) throws {
        let folder = try TemporaryFolder()
        let synthesizer = try SoundBankNote.synthesizer([try SoundBankNote.write(Self.bank, format, in: folder), SoundBankNote.fluidR3])
        let sine = SoundBankNote.render(synthesizer) { SoundBankNote.select($0, program: 0) }
        #expect(WaveformJudgement.mismatches(PowerSpectrum(stereo: sine, start: 0.25), as: .sine, fundamental: 440).isEmpty)
        synthesizer.reset()
        // Program 40, a violin: the test bank has none, FluidR3_GM's plays, and it is no sine.
        let violin = SoundBankNote.render(synthesizer) { SoundBankNote.select($0, program: 40) }
        #expect(SoundBankNote.rms(violin, from: 0.25, to: 0.6) > 0.005)
        #expect(!WaveformJudgement.mismatches(PowerSpectrum(stereo: violin, start: 0.25), as: .sine, fundamental: 440).isEmpty)
        #expect(synthesizer.substitutions.isEmpty, "\(synthesizer.substitutions)")
    }
}
