import CFluidSynth
import Files
import LibraryLoader
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

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
    // @unchecked: confined. Made and loaded on one thread, then handed once (under
    // `SynthesizerPreload`'s lock) to the one `Synthesizer` that owns it from then on.
    /// What an instance is made from: what FluidSynth cannot change once it is made.
    struct Recipe: Hashable, Sendable {
        var sampleRate: Double
        /// Every SoundFont, each once, in the order loaded (``SoundFontStack/allPaths``).
        var soundFonts: [FilePath]
        /// Stereo outputs, each with its own reverb and chorus (``Synthesizer/outputs``).
        var outputs = 1
    }

    /// What it is made from so far: its SoundFonts come after the synthesizer (`load(_:)`).
    private(set) var recipe: Recipe
    private let settings: OpaquePointer
    let synth: OpaquePointer
    /// FluidSynth's id of each SoundFont loaded.
    private(set) var soundFontIDs: [FilePath: Int32] = [:]
    /// The song's own bank, and FluidSynth's id for it once loaded (``add(songBank:)``).
    private(set) var songBank: (bank: SongSoundBank, id: Int32)?
    /// The ids of the DLS banks loaded, whose bank numbers FluidSynth gives as DLS writes them.
    private(set) var downloadableSoundsIDs: Set<Int32> = []

    convenience init(_ recipe: Recipe) throws(SynthesisError) {
        try self.init(sampleRate: recipe.sampleRate, outputs: recipe.outputs)
        try load(recipe.soundFonts)
    }

    /// A synthesizer with no SoundFont yet: made while the SoundFonts are still being worked out,
    /// the first one made in a process also sets up FluidSynth's tables (5 ms). With `outputs`
    /// above 1, FluidSynth renders MIDI channel c into output c % `outputs` (its audio groups),
    /// each with a reverb and a chorus of its own (its effects groups, mapped alike): what
    /// ``Synthesizer/render(into:at:frames:)`` hands out as stems.
    init(sampleRate: Double, outputs: Int = 1) throws(SynthesisError) {
        try Self.loadLibrary()
        Self.silenceLibraryLog
        guard let settings = new_fluid_settings() else { throw .cannotCreateSynthesizer(reason: "out of memory") }
        let integers: [(String, Int)] = [
            ("synth.midi-channels", Synthesizer.channelCount),
            // Messages come only from the rendering thread: no lock needed.
            ("synth.threadsafe-api", 0),
            // mlock of the samples fails without privileges and buys nothing offline.
            ("synth.lock-memory", 0),
            ("synth.audio-groups", outputs),
            // FluidSynth hands out as many stereo outputs as it has audio channels, at most its groups.
            ("synth.audio-channels", outputs),
            ("synth.effects-groups", outputs),
        ]
        guard fluid_settings_setnum(settings, "synth.sample-rate", sampleRate) == FLUID_OK else {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth refused synth.sample-rate = \(sampleRate)")
        }
        for (name, value) in integers where fluid_settings_setint(settings, name, Int32(value)) != FLUID_OK {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth refused \(name) = \(value)")
        }
        guard let synth = new_fluid_synth(settings) else {
            delete_fluid_settings(settings)
            throw .cannotCreateSynthesizer(reason: "FluidSynth could not create a synthesizer")
        }
        SoundFontFileReader.install(in: synth, settings: settings)
        recipe = Recipe(sampleRate: sampleRate, soundFonts: [], outputs: outputs)
        self.settings = settings
        self.synth = synth
    }

    /// Loads `soundFonts` in order, each checked to be a SoundFont first. Once only: FluidSynth
    /// takes its file reader (`SoundFontFileReader`) only before its first SoundFont.
    func load(_ soundFonts: [FilePath]) throws(SynthesisError) {
        precondition(recipe.soundFonts.isEmpty, "an instance's SoundFonts are loaded once")
        var formats: [SoundFontFormat] = []
        for path in soundFonts { formats.append(try SoundFontFormat(of: path)) }
        for (path, format) in zip(soundFonts, formats) {
            let byteCount = FileStamp(ofFileAt: path)?.size ?? 0
            let id = path.withPlatformString { load(named: $0, format: format, byteCount: byteCount) }
            guard id != FLUID_FAILED else { throw .cannotLoadSoundFont(path: path) }
            soundFontIDs[path] = id
            if format == .downloadableSounds { downloadableSoundsIDs.insert(id) }
        }
        recipe.soundFonts = soundFonts
    }

    /// Loads the bank a song brings, after the stack (FluidSynth takes SoundFonts after its first;
    /// only its file readers are fixed by then), checked to be a sound bank first.
    func add(songBank: SongSoundBank) throws(SynthesisError) {
        precondition(self.songBank == nil, "an instance has one song bank at most")
        let id: Int32
        let format: SoundFontFormat
        switch songBank.source {
        case .file(let bankFile):
            // A bank beside a song in an archive is copied out, for as long as it loads.
            let (path, found, memberCopy) = try Self.onDisk(bankFile)
            defer { withExtendedLifetime(memberCopy) {} }
            format = found
            id = path.withPlatformString { load(named: $0, format: format, byteCount: FileStamp(ofFileAt: path)?.size ?? 0) }
            guard id != FLUID_FAILED else { throw .cannotLoadSoundFont(path: bankFile) }
        case .embedded(let embedded, let songFile):
            // An RMID file in an archive is copied out whole, for as long as its bank loads: the
            // bank is then read as from any file.
            let part = Int64(embedded.bytes.lowerBound)..<Int64(embedded.bytes.upperBound)
            let (file, found, memberCopy) = try Self.onDisk(songFile, part: part)
            defer { withExtendedLifetime(memberCopy) {} }
            format = found
            switch format {
            case .soundFont, .compressed:
                guard let stamp = FileStamp(ofFileAt: file) else { throw .cannotLoadSoundFont(path: songFile) }
                let name = SoundFontFileReader.name(ofBank: embedded.bytes, in: file, stamp: stamp)
                id = name.withUnsafeBufferPointer { load(named: $0.baseAddress!, format: format, byteCount: Int64(part.count)) }
            case .downloadableSounds:
                // libinstpatch, FluidSynth's DLS loader, opens files by path only: it reads a copy
                // of the bank, which goes once loaded (the samples are then in memory).
                let source: ReadableFile
                do {
                    source = try ReadableFile(file)
                } catch {
                    throw .notASoundFont(path: songFile, reason: error.description)
                }
                let copy: PrivateTemporaryFile
                do {
                    copy = try PrivateTemporaryFile(copying: part, of: source, fileExtension: "dls")
                } catch {
                    throw .cannotCopyBank(error)
                }
                id = copy.path.withPlatformString { load(named: $0, format: format, byteCount: Int64(part.count)) }
            }
            guard id != FLUID_FAILED else { throw .cannotLoadSoundFont(path: songFile) }
        }
        self.songBank = (songBank, id)
        if format == .downloadableSounds { downloadableSoundsIDs.insert(id) }
    }

    /// The file `path` is on disk, where FluidSynth reads banks (a member of an archive copied out,
    /// gone with `copy`), and the format of the bank there (in `part` of it); errors name `path`.
    private static func onDisk(_ path: FilePath, part: Range<Int64>? = nil) throws(SynthesisError) -> (
        file: FilePath, format: SoundFontFormat, copy: PrivateTemporaryFile?
    ) {
        let copy: PrivateTemporaryFile?
        do {
            copy = try PrivateTemporaryFile.copy(ofArchivedMember: path)
        } catch {
            throw .notASoundFont(path: path, reason: error.description)
        }
        let file = copy?.path ?? path
        do {
            return (file, try SoundFontFormat(of: file, part: part), copy)
        } catch .notASoundFont(_, let reason) {
            throw .notASoundFont(path: path, reason: reason)
        }
    }

    /// FluidSynth's load of the bank called `name`, on as many threads as its format gains from
    /// (``OpenMPThreads``): its id, or FLUID_FAILED.
    private func load(named name: UnsafePointer<CChar>, format: SoundFontFormat, byteCount: Int64) -> Int32 {
        let load = { fluid_synth_sfload(self.synth, name, 0) }
        return OpenMPThreads.shareLoad(of: format, byteCount: byteCount) ? load() : OpenMPThreads.one(load)
    }

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
    }

    /// Opens FluidSynth (and the libraries it brings), at once after the first time; LibraryLoader
    /// opens it at its first use.
    static func loadLibrary() throws(SynthesisError) {
        if let reason = smfplay_load_libfluidsynth() {
            throw .cannotCreateSynthesizer(reason: "\(String(cString: reason)) (Debian's libfluidsynth3 is FluidSynth)")
        }
    }

    /// FluidSynth's log goes to standard error and would scribble over a progress bar; so would
    /// GLib's, where libinstpatch (FluidSynth's DLS loader, offered every file FluidSynth's own
    /// loader refuses) reports a damaged .sf2 with three GLib criticals. Failures reach the user
    /// through our own errors instead. GLib comes with FluidSynth, so its function is looked up at
    /// run time; the handler it is given drops what libraries log through `g_log`.
    private static let silenceLibraryLog: Void = {
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            fluid_set_log_function(Int32(level.rawValue), nil, nil)
        }
        typealias LogHandler = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
        typealias SetDefaultHandler = @convention(c) (LogHandler, UnsafeMutableRawPointer?) -> LogHandler?
        // RTLD_DEFAULT: every library loaded.
        if let setDefaultHandler = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "g_log_set_default_handler") {
            _ = unsafeBitCast(setDefaultHandler, to: SetDefaultHandler.self)({ _, _, _, _ in }, nil)
        }
    }()
}
