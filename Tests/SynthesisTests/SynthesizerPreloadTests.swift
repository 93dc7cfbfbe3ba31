import CFluidSynth
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// SoundFonts loaded ahead of the synthesizer that plays them (`smfplay play` starts the load
/// before reading its command line, and hands the preload down to the synthesizer it makes).
/// Each preload is an object of its own: the tests run side by side in one process.
@Suite("SoundFonts loaded ahead of the synthesizer")
struct SynthesizerPreloadTests {
    static func preload(_ recipe: (sampleRate: Double, soundFonts: SoundFontStack)?) -> SynthesizerPreload {
        SynthesizerPreload(expectedSampleRate: 44_100) { recipe }
    }

    @Test("taken by a synthesizer of the same sample rate and SoundFonts, once; not by one of another rate, nor when there was nothing to load")
    func takenWhenTheRecipeMatches() throws {
        let soundFont = try TestSoundFont.required()
        let recipe = FluidSynthInstance.Recipe(sampleRate: 44_100, soundFonts: [soundFont])
        let matching = Self.preload((44_100, SoundFontStack([soundFont])))
        #expect(matching.take(recipe) != nil)
        #expect(matching.take(recipe) == nil, "taken twice")
        #expect(Self.preload((22_050, SoundFontStack([soundFont]))).take(recipe) == nil, "taken at another rate")
        #expect(Self.preload(nil).take(recipe) == nil, "taken when nothing was to load")
        // A configuration's rate other than the one expected: the synthesizer made early is made again.
        let remade = try #require(Self.preload((22_050, SoundFontStack([soundFont]))).take(.init(sampleRate: 22_050, soundFonts: [soundFont])))
        var rate = 0.0
        fluid_settings_getnum(fluid_synth_get_settings(remade.synth), "synth.sample-rate", &rate)
        #expect(rate == 22_050)
    }

    @Test(
        "a synthesizer made from the SoundFonts loaded ahead sounds exactly as one that loaded its own, its settings (gain, polyphony, reverb, chorus) applied alike"
    )
    func soundsTheSame() throws {
        let soundFont = try TestSoundFont.required()
        let settings = SynthesizerSettings(gain: 0.6, polyphony: 32, interpolation: .sinc, reverb: .init(roomSize: 0.7, level: 0.5), chorus: nil)
        func chord(on synthesizer: Synthesizer) -> [Float] {
            var audio = [Float](repeating: 0, count: 2 * 44_100)
            synthesizer.send(status: 0xC0, channel: 0, data1: 19, data2: 0)
            for key: UInt8 in [60, 64, 67] { synthesizer.send(status: 0x90, channel: 0, data1: key, data2: 100) }
            audio.withUnsafeMutableBufferPointer { synthesizer.render(into: $0.baseAddress!, frames: 44_100) }
            return audio
        }
        let stack = SoundFontStack([soundFont])
        let own = chord(on: try Synthesizer(settings: settings, soundFonts: stack))
        let preload = Self.preload((44_100, stack))
        let preloadedSynthesizer = try Synthesizer(settings: settings, soundFonts: stack, preload: preload)
        #expect(preload.take(.init(sampleRate: 44_100, soundFonts: [soundFont])) == nil, "the synthesizer did not take the preload")
        let preloaded = chord(on: preloadedSynthesizer)
        #expect(own.contains { $0 != 0 })
        #expect(own == preloaded, "the preloaded synthesizer sounds otherwise")
        // The settings are the synthesizer's, not the preload's defaults: without the reverb, another sound.
        var dry = settings
        dry.reverb = nil
        let dryChord = chord(on: try Synthesizer(settings: dry, soundFonts: stack, preload: Self.preload((44_100, stack))))
        #expect(dryChord != own, "the preload's settings, not the synthesizer's, were applied")
    }

    @Test("a synthesizer made while the SoundFonts still load waits for them, then plays; a missing SoundFont is still reported by the synthesizer")
    func waitsForTheLoad() throws {
        let soundFont = try TestSoundFont.required()
        let synthesizer = try Synthesizer(
            settings: SynthesizerSettings(gain: 0.5), soundFonts: SoundFontStack([soundFont]),
            preload: Self.preload((44_100, SoundFontStack([soundFont]))))
        #expect(synthesizer.soundFonts.allPaths == [soundFont])
        let missing: FilePath = "/nonexistent/missing.sf2"
        #expect {
            try Synthesizer(
                settings: SynthesizerSettings(gain: 0.5), soundFonts: SoundFontStack([missing]),
                preload: Self.preload((44_100, SoundFontStack([missing]))))
        } throws: { error in
            guard let error = error as? SynthesisError, case .notASoundFont = error else { return false }
            return true
        }
    }
}
