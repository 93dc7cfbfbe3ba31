#if canImport(Glibc)
import Glibc
#endif
import CFluidSynth
@testable import Synthesis
import SystemPackage
import TestSupport
import Testing

/// SoundFonts loaded ahead of the synthesizer that plays them (`smfplay play` starts the load
/// before reading its command line). Each case runs in a process of its own (an exit test): a
/// preload is the process's, and a test elsewhere making a synthesizer meanwhile would take it.
/// In the child, a failed check exits with its own status, which the parent's expectation shows.
@Suite("SoundFonts loaded ahead of the synthesizer")
struct SynthesizerPreloadTests {
    @Test("taken by a synthesizer of the same sample rate and SoundFonts, once; not by one of another rate; nothing waits when none was started")
    func takenWhenTheRecipeMatches() async throws {
        _ = try TestSoundFont.required()
        await #expect(processExitsWith: .success) {
            let soundFont = TestSoundFont.path
            let recipe = FluidSynthInstance.Recipe(sampleRate: 44_100, soundFonts: [soundFont])
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (44_100, SoundFontStack([soundFont])) }
            if SynthesizerPreload.take(recipe) == nil { exit(1) }
            if SynthesizerPreload.take(recipe) != nil { exit(2) }
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (22_050, SoundFontStack([soundFont])) }
            if SynthesizerPreload.take(recipe) != nil { exit(3) }
            SynthesizerPreload.start(expectedSampleRate: 44_100) { nil }
            if SynthesizerPreload.take(recipe) != nil { exit(4) }
            // A configuration's rate other than the one expected: the synthesizer made early is made again.
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (22_050, SoundFontStack([soundFont])) }
            guard let remade = SynthesizerPreload.take(.init(sampleRate: 22_050, soundFonts: [soundFont])) else { exit(5) }
            var rate = 0.0
            fluid_settings_getnum(fluid_synth_get_settings(remade.synth), "synth.sample-rate", &rate)
            if rate != 22_050 { exit(6) }
        }
    }

    @Test("a synthesizer made from the SoundFonts loaded ahead sounds exactly as one that loaded its own, its settings (gain, polyphony, reverb, chorus) applied alike")
    func soundsTheSame() async throws {
        _ = try TestSoundFont.required()
        await #expect(processExitsWith: .success) {
            let soundFont = TestSoundFont.path
            let settings = SynthesizerSettings(gain: 0.6, polyphony: 32, interpolation: .sinc,
                                               reverb: .init(roomSize: 0.7, level: 0.5), chorus: nil)
            func chord(on synthesizer: Synthesizer) -> [Float] {
                var audio = [Float](repeating: 0, count: 2 * 44_100)
                synthesizer.send(status: 0xC0, channel: 0, data1: 19, data2: 0)
                for key: UInt8 in [60, 64, 67] { synthesizer.send(status: 0x90, channel: 0, data1: key, data2: 100) }
                audio.withUnsafeMutableBufferPointer { synthesizer.render(into: $0.baseAddress!, frames: 44_100) }
                return audio
            }
            guard let own = try? chord(on: Synthesizer(settings: settings, soundFontPath: soundFont)) else { exit(1) }
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (44_100, SoundFontStack([soundFont])) }
            guard let preloaded = try? chord(on: Synthesizer(settings: settings, soundFontPath: soundFont)) else { exit(2) }
            if !own.contains(where: { $0 != 0 }) { exit(3) }
            if own != preloaded { exit(4) }
            // The settings are the synthesizer's, not the preload's defaults: without the reverb, another sound.
            var dry = settings
            dry.reverb = nil
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (44_100, SoundFontStack([soundFont])) }
            guard let dryChord = try? chord(on: Synthesizer(settings: dry, soundFontPath: soundFont)) else { exit(5) }
            if dryChord == own { exit(6) }
        }
    }

    @Test("a synthesizer made while the SoundFonts still load waits for them, then plays; a missing SoundFont is still reported by the synthesizer")
    func waitsForTheLoad() async throws {
        _ = try TestSoundFont.required()
        await #expect(processExitsWith: .success) {
            let soundFont = TestSoundFont.path
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (44_100, SoundFontStack([soundFont])) }
            guard let synthesizer = try? Synthesizer(settings: SynthesizerSettings(gain: 0.5), soundFontPath: soundFont) else { exit(1) }
            if synthesizer.soundFonts.allPaths != [soundFont] { exit(2) }
            SynthesizerPreload.start(expectedSampleRate: 44_100) { (44_100, SoundFontStack(["/nonexistent/missing.sf2"])) }
            do {
                _ = try Synthesizer(settings: SynthesizerSettings(gain: 0.5), soundFontPath: "/nonexistent/missing.sf2")
                exit(3)
            } catch let error as SynthesisError {
                guard case .notASoundFont = error else { exit(4) }
            } catch {
                exit(5)
            }
        }
    }
}
