import CFluidSynth
import SystemPackage

/// A FluidSynth synthesizer with its SoundFonts loaded, and nothing else about its sound set yet:
/// the part of a ``Synthesizer`` that takes long to make (reading and preparing the SoundFonts'
/// samples takes 25 ms for a 6 MB SoundFont and half a second for a 140 MB one), and so the part
/// that can be made ahead of need (``SynthesizerPreload``). The synthesizer sets everything else
/// (gain, polyphony, reverb, chorus, interpolation) through FluidSynth's API afterwards.
final class FluidSynthInstance: @unchecked Sendable {
    /// What an instance is made from: what FluidSynth cannot change once it is made.
    struct Recipe: Hashable, Sendable {
        var sampleRate: Double
        /// Every SoundFont, each once, in the order loaded (``SoundFontStack/allPaths``).
        var soundFonts: [FilePath]
    }

    let recipe: Recipe
    private let settings: OpaquePointer
    let synth: OpaquePointer
    /// FluidSynth's id of each SoundFont loaded.
    let soundFontIDs: [FilePath: Int32]

    init(_ recipe: Recipe) throws(SynthesisError) {
        guard let settings = new_fluid_settings() else { throw .cannotCreateSynthesizer(reason: "out of memory") }
        let integers: [(String, Int)] = [
            ("synth.midi-channels", Synthesizer.channelCount),
            // Messages come only from the rendering thread: no lock needed.
            ("synth.threadsafe-api", 0),
            // mlock of the samples fails without privileges and buys nothing offline.
            ("synth.lock-memory", 0),
        ]
        guard fluid_settings_setnum(settings, "synth.sample-rate", recipe.sampleRate) == FLUID_OK else {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth refused synth.sample-rate = \(recipe.sampleRate)")
        }
        for (name, value) in integers where fluid_settings_setint(settings, name, Int32(value)) != FLUID_OK {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth refused \(name) = \(value)")
        }
        guard let synth = new_fluid_synth(settings) else {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth could not create a synthesizer")
        }
        var ids: [FilePath: Int32] = [:]
        for path in recipe.soundFonts {
            let id = path.withPlatformString { fluid_synth_sfload(synth, $0, 0) }
            guard id != FLUID_FAILED else {
                delete_fluid_synth(synth)
                delete_fluid_settings(settings)
                throw .cannotLoadSoundFont(path: path)
            }
            ids[path] = id
        }
        self.recipe = recipe
        self.settings = settings
        self.synth = synth
        soundFontIDs = ids
    }

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
    }
}
