import Foundation
import TestSupport
import Testing

@testable import Synthesis

/// The release a preset sets is the one heard from a SoundFont (its releaseVolEnv generator), and
/// not from a DLS file (an `art1` connection to the volume envelope's release time): libinstpatch
/// 1.1.6, which reads DLS for FluidSynth, makes each region a SoundFont voice from its ranges,
/// sample, root key, fine tune and loop alone (its `IpatchSF2VoiceCache_DLS.c` sets no other
/// generator), so every DLS articulation is lost and a note stops as its key is let go
/// (FluidSynth's default release, 1 ms). If the DLS case fails, DLS articulation started working:
/// the README's SoundFonts section says it does not.
@Suite("Releases set by the sound banks the tests write")
struct SoundBankReleaseTests {
    static let bank = TestSoundBank(presets: [
        .init("Short Release", program: 0, waveform: .sine, releaseSeconds: 0.05),
        .init("Long Release", program: 1, waveform: .sine, releaseSeconds: 2),
    ])

    @Test(
        "a 50 ms release is silent 0.2 s after the key is let go; a 2 s one is still heard, but from DLS, whose articulation is lost",
        arguments: TestSoundBank.Format.allCases)
    func releaseIsHeard(format: TestSoundBank.Format) throws {
        let folder = try TemporaryFolder()
        let synthesizer = try SoundBankNote.synthesizer([try SoundBankNote.write(Self.bank, format, in: folder)])
        var fall: [Double] = []
        for program: UInt8 in [0, 1] {
            synthesizer.reset()
            let audio = SoundBankNote.render(synthesizer, held: 0.4, after: 0.5) { SoundBankNote.select($0, program: program) }
            let held = SoundBankNote.rms(audio, from: 0.3, to: 0.4)
            let after = SoundBankNote.rms(audio, from: 0.6, to: 0.7)
            #expect(held > 0.01, "\(format) program \(program) is heard while held")
            fall.append(20 * log10(max(after, 1e-9) / held))
        }
        // FluidSynth's release falls 96 dB over its time, linearly in dB: 2 s fall about 10 dB
        // in 0.2–0.3 s; 50 ms have reached silence.
        #expect(fall[0] < -80, "\(format): the short release fell \(fall[0]) dB")
        if format == .downloadableSounds {
            #expect(fall[1] < -80, "DLS: the long release fell \(fall[1]) dB: its articulation is heard now")
        } else {
            #expect((-20 ... -5).contains(fall[1]), "\(format): the long release fell \(fall[1]) dB")
        }
    }
}
