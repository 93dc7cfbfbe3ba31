import ArgumentParser
import Configuration
import SMF
import Synthesis
import SystemPackage

/// The options of every command that makes sound: which SoundFonts, and which standard songs are read as.
struct SoundOptions: ParsableArguments {
    @Option(
        name: .customLong("soundfont"),
        help: ArgumentHelp(
            "A SoundFont file, or the name of one in the SoundFont folders; given more than once, a stack: for each instrument the first that has it plays.",
            valueName: "path-or-name"))
    var soundFonts: [String] = []

    @Option(
        help: ArgumentHelp(
            "How songs are read: auto (each as the standard it was written for), gm, gs, xg or gm2. Default: the configuration's midi_mode, else auto.",
            valueName: "mode"))
    var midiMode: MIDIModeChoice?

    @Option(parsing: .unconditional, help: "Synthesizer gain, 0–10.")
    var gain: Double?

    @Flag(help: "Turn the reverb off.")
    var noReverb = false

    @Flag(help: "Turn the chorus off.")
    var noChorus = false

    @Flag(help: "Turn off the limiter that keeps every peak at or below -1 dBFS (default: the configuration's limiter, else on).")
    var noLimiter = false

    @OptionGroup var sidecar: SidecarOption

    enum MIDIModeChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, gm, gs, xg, gm2

        var mode: MIDIMode? { MIDIMode(rawValue: rawValue) }
    }

    func checkOwnArguments() throws {
        if let gain, !RenderSettings.gainRange.contains(gain) { throw ValidationError("--gain must be from 0 to 10, not \(gain)") }
    }

    /// The command line over the configuration.
    func apply(to settings: inout RenderSettings) {
        if let gain { settings.gain = gain }
        if noReverb { settings.isReverbEnabled = false }
        if noChorus { settings.isChorusEnabled = false }
        if let midiMode { settings.midiMode = midiMode.mode }
        if noLimiter { settings.limiter = false }
        sidecar.apply(to: &settings)
    }

    /// The SoundFonts to play from: `--soundfont` for every standard, else the configuration's
    /// stacks, else the one found in the usual places.
    /// A name that names no SoundFont is a wrong command line (status 64) when `--soundfont` gave it.
    func soundFontStack(settings: RenderSettings, configurationFile: FilePath?) throws(CommandFailure) -> SoundFontStack {
        do {
            return try Self.soundFontStack(requested: soundFonts, settings: settings, configurationFile: configurationFile)
        } catch {
            throw CommandFailure(error.description, status: error.isWrongCommandLine ? .usage : .failure)
        }
    }

    /// The SoundFonts to play from, `requested` being the `--soundfont` values.
    static func soundFontStack(requested: [String], settings: RenderSettings, configurationFile: FilePath?) throws(SoundFontLookupError)
        -> SoundFontStack
    {
        let locator = SoundFontLocator.standard(directories: XDGDirectories.current())
        let paths = try locator.locate(requested: requested, configured: settings.soundFonts, configurationFile: configurationFile)
        guard requested.isEmpty else { return SoundFontStack(paths) }
        var byMode: [MIDIMode: [FilePath]] = [:]
        for (mode, stack) in settings.soundFontsByStandard {
            byMode[mode] = try locator.locate(requested: [], configured: stack, configurationFile: configurationFile)
        }
        return SoundFontStack(paths, byMode: byMode)
    }
}

extension SoundOptions: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [sidecar] }
}
