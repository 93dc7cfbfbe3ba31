#if canImport(Glibc)
import Glibc
#endif
import CFluidSynth
import SystemPackage

/// A FluidSynth synthesizer with its SoundFonts loaded, and nothing else about its sound set yet:
/// the part of a ``Synthesizer`` that takes long to make (reading and preparing the SoundFonts'
/// samples takes 25 ms for a 6 MB SoundFont and half a second for a 140 MB one), and so the part
/// that can be made ahead of need (``SynthesizerPreload``). The synthesizer sets everything else
/// (gain, polyphony, reverb, chorus, interpolation) through FluidSynth's API afterwards.
///
/// Whoever makes one, each file is checked to be a SoundFont before FluidSynth sees it, and
/// FluidSynth's log is silenced first: a preload on its own thread must not scribble on the
/// terminal either.
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
        Self.silenceLibraryLog
        for path in recipe.soundFonts {
            if let reason = Self.soundFontProblem(at: path) { throw .notASoundFont(path: path, reason: reason) }
        }
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

    /// Why a file cannot be a SoundFont by its outline, or nil: a SoundFont (.sf2, and the .sf3 of
    /// MuseScore) is a RIFF file of form `sfbk`, a DLS file one of form `DLS `, and neither is
    /// shorter than its RIFF header says.
    static func soundFontProblem(at path: FilePath) -> String? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 12)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 12) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return String(cString: strerror(errno)) }
        guard count == 12, header[0..<4].elementsEqual("RIFF".utf8),
              header[8..<12].elementsEqual("sfbk".utf8) || header[8..<12].elementsEqual("DLS ".utf8)
        else { return "it does not start like a .sf2 or .sf3 file (RIFF, then sfbk)" }
        let declared = 8 + (Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24)
        guard declared <= Int(status.st_size) else {
            return "it is cut short: its header says \(declared) bytes, the file has \(status.st_size)"
        }
        return nil
    }

    /// FluidSynth's log goes to standard error and would scribble over a
    /// progress bar; failures reach the user through our own errors instead.
    private static let silenceLibraryLog: Void = {
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            fluid_set_log_function(Int32(level.rawValue), nil, nil)
        }
    }()
}
