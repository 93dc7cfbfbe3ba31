import Configuration
import Synthesis

/// `smfplay play`'s SoundFonts loaded while ArgumentParser reads its command line: from a glance
/// at the raw arguments (the command, `--config`, `--soundfont`), the same configuration and
/// SoundFonts as the command will find, worked out here while a thread of their own makes the
/// synthesizer, and loaded on that thread. Reading the command line and the configuration takes
/// 8–9 ms that the load, 25 ms or more, no longer waits for. Anything the glance gets wrong only
/// costs the work done ahead: the synthesizer made for real loads its own SoundFonts unless they
/// are the same (see `SynthesizerPreload`).
enum PlayPreload {
    /// `arguments` are the command line without the program's name, `play` written out.
    static func start(arguments: [String]) {
        guard arguments.first == Play.configuration.commandName else { return }
        var configurationPath: String?
        var soundFonts: [String] = []
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst(), argument != "--" {
            if ["--help", "-h", "--version", "--help-hidden"].contains(argument) { return }
            // `--name value` or `--name=value`.
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard name == "--config" || name == "--soundfont" else { continue }
            guard let value = parts.count == 2 ? String(parts[1]) : rest.popFirst() else { break }
            // `--config=` and `--config ""` stop the command (see ConfigurationOption): nothing to load.
            if name == "--config", value.isEmpty { return }
            if name == "--config" { configurationPath = value } else { soundFonts.append(value) }
        }
        SynthesizerPreload.start(expectedSampleRate: Double(RenderSettings.defaultSampleRate)) {
            guard let configuration = try? ConfigurationOption.file(path: configurationPath).load(),
                  let stack = try? SoundOptions.soundFontStack(requested: soundFonts, settings: configuration.render,
                                                               configurationFile: configuration.path)
            else { return nil }
            return (Double(configuration.render.sampleRate), stack)
        }
    }
}
