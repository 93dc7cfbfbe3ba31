import Configuration
import Files
import Playback
import Synthesis

/// What smfplay reads of its raw command line before ArgumentParser parses it: the one place
/// that does, for three things the parser cannot do or cannot do soon enough. In order:
///
/// 1. **`smfplay PATH…` plays**, as `smfplay play PATH…`: what people who come from mpv,
///    TiMidity++ or VLC type first. A command's name wins over a file of that name (`./info` plays
///    the file `info`), and a first word that is neither a command nor something there is a usage
///    error with the command it was likely meant to be: `smfplay inof x.mid` must not play x.mid.
/// 2. **`smfplay play`'s SoundFonts start loading** from a glance at the arguments (the command,
///    `--config`, `--soundfont`): the same configuration and SoundFonts as the command will find,
///    worked out here while a thread of their own makes the synthesizer, and loaded on that thread
///    (``SynthesizerPreload``). Parsing the command line and reading the configuration take
///    8–9 ms that the load, 25 ms or more, then no longer waits for: started after the parse, the
///    first sound would come that much later. Anything the glance gets wrong only costs the work
///    done ahead: the synthesizer made for real loads its own SoundFonts unless they are the same.
/// 3. **Every empty `--name=` is written out as `--name ""`**. ArgumentParser takes nothing after
///    the `=` for no value yet and reads the next argument as the value: `--config= song.mid`
///    loaded the song as settings and lost it as an input, `--text-encoding= x.mid` read the
///    file's name as the encoding. Written out, the empty value reaches the option's parsing or
///    `checkArguments()`, which refuse it with the command's usage. Arguments after `--` are
///    inputs, whatever their names.
struct CommandLinePrescan {
    /// What ArgumentParser is to parse.
    let arguments: [String]
    /// The SoundFonts' load started for `play`, for `Play.run(preload:)`.
    let preload: SynthesizerPreload?

    /// `raw` is the command line without the program's name; `commands` the subcommands' names.
    init(_ raw: [String], commands: [String]) throws(CommandFailure) {
        let named = try Self.namingPlay(raw, commands: commands)
        preload = Self.startPreload(arguments: named)
        arguments = Self.writingOutEmptyValues(in: named)
    }

    // MARK: 1. `smfplay PATH…` plays

    /// ArgumentParser's own options of `smfplay` itself.
    static let rootOptions: Set = ["-h", "--help", "--help-hidden", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// `arguments` as they are, or with `play` before them.
    private static func namingPlay(_ arguments: [String], commands: [String]) throws(CommandFailure) -> [String] {
        guard let first = arguments.first else { return arguments }
        if first == "help" {
            if let name = arguments.dropFirst().first, !commands.contains(name), !name.hasPrefix("-") {
                throw .usage("no command named '\(name)'\(suggestion(for: name, among: commands)); the commands: \(commands.joined(separator: ", "))")
            }
            return arguments
        }
        if commands.contains(first) { return arguments }
        if first.hasPrefix("-"), first != StandardInput.argument {
            let name = String(first.prefix { $0 != "=" })
            // `smfplay --shuffle Chopin`: options of play's before what to play.
            let namesSomething = arguments.dropFirst().contains { StandardInput.isArgument($0) || isThere($0) }
            return rootOptions.contains(name) || !namesSomething ? arguments : ["play"] + arguments
        }
        if StandardInput.isArgument(first) || isThere(first) { return ["play"] + arguments }
        if looksLikeAPath(first) { throw .usage("\(first): no such file or folder") }
        throw .usage("'\(first)' is neither a command nor a file or folder\(suggestion(for: first, among: commands)); see smfplay --help")
    }

    private static func isThere(_ argument: String) -> Bool {
        !argument.isEmpty && CommandLinePath.filePath(argument).kind != nil
    }

    /// A word with a slash or an extension is a file that is not there, not a misspelt command.
    private static func looksLikeAPath(_ argument: String) -> Bool {
        argument.contains("/") || argument.dropFirst().contains(".")
    }

    private static func suggestion(for name: String, among commands: [String]) -> String {
        NameSuggestion.closest(to: name, among: commands).map { " (did you mean '\($0)'?)" } ?? ""
    }

    // MARK: 2. `play`'s SoundFonts start loading

    /// Nil when the command is not `play`, or asks for help or has no SoundFont to load.
    private static func startPreload(arguments: [String]) -> SynthesizerPreload? {
        guard arguments.first == Play.configuration.commandName else { return nil }
        var configurationPath: String?
        var soundFonts: [String] = []
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst(), argument != "--" {
            if ["--help", "-h", "--version", "--help-hidden"].contains(argument) { return nil }
            // `--name value` or `--name=value`.
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard name == "--config" || name == "--soundfont" else { continue }
            guard let value = parts.count == 2 ? String(parts[1]) : rest.popFirst() else { break }
            // `--config=` and `--config ""` stop the command (see ConfigurationOption): nothing to load.
            if name == "--config", value.isEmpty { return nil }
            if name == "--config" { configurationPath = value } else { soundFonts.append(value) }
        }
        return SynthesizerPreload(expectedSampleRate: Double(RenderSettings.defaultSampleRate)) {
            guard let configuration = try? ConfigurationOption.file(path: configurationPath).load(),
                let stack = try? SoundOptions.soundFontStack(
                    requested: soundFonts, settings: configuration.render,
                    configurationFile: configuration.path)
            else { return nil }
            return (Double(configuration.render.sampleRate), stack)
        }
    }

    // MARK: 3. Empty values written out

    private static func writingOutEmptyValues(in arguments: [String]) -> [String] {
        var result: [String] = []
        var readsOptions = true
        for argument in arguments {
            if argument == "--" { readsOptions = false }
            if readsOptions, argument.hasPrefix("--"), argument.count > 3, argument.hasSuffix("="),
                argument.dropLast().dropFirst(2).allSatisfy({ $0 != "=" })
            {
                result += [String(argument.dropLast()), ""]
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
