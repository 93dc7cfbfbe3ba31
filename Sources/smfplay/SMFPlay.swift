import ArgumentParser
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

@main
struct SMFPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smfplay",
        abstract: "Play, render and inspect Standard MIDI Files.",
        discussion: CommandHelp.discussion(
            """
            smfplay PATH... plays MIDI files, folders and playlists, as smfplay play PATH... does.
            """, examples: SMFPlay.examples),
        version: version,
        subcommands: [
            Info.self, Render.self, ReportCommand.self, Play.self, Resume.self, Browse.self, IndexCommand.self, Search.self, Thumbnail.self,
            Import.self, LyricsCommand.self,
        ]
    )

    /// What `--version` prints, and what rendered files name as their software (`smfplay 0.1.0`).
    static let version = "0.1.0"

    static let commandNames = configuration.subcommands.map { $0._commandName }

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            let prescan = try CommandLinePrescan(arguments, commands: commandNames)
            arguments = prescan.arguments
            if let search = PlainSearch.parsed(arguments) { return try search.run() }
            // ArgumentParser's own `main`, with the checks that need the whole command line
            // between parsing and running.
            var command = try parseAsRoot(arguments)
            do {
                try (command as? any PathArguments)?.refuseEmptyPaths()
                try (command as? any ArgumentChecks)?.checkArguments()
            } catch let error as ValidationError {
                exitShowingUsage(of: type(of: command), error)
            }
            if let play = command as? Play {
                try play.run(preload: prescan.preload)
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            if let message = failure.message { printError(message) }
            Glibc.exit(failure.status.rawValue)
        } catch {
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success, message.hasPrefix("OVERVIEW:") || message.hasPrefix("USAGE:"),
                let asked = commandAsked(in: arguments) as? any HasExamples.Type
            {
                print(message + "\n" + CommandHelp.helpEnding(of: asked.examples))
                Glibc.exit(ExitStatus.success.rawValue)
            }
            exit(withError: error)
        }
    }

    /// The command whose help the command line asks for (`smfplay play --help`, `smfplay help
    /// play`), or smfplay itself.
    private static func commandAsked(in arguments: [String]) -> any ParsableCommand.Type {
        let words = arguments.filter { !$0.hasPrefix("-") }
        let name = words.first == "help" ? words.dropFirst().first : words.first
        return configuration.subcommands.first { $0._commandName == name } ?? SMFPlay.self
    }

    /// A check of the arguments failed after parsing: its message with the command's usage, as
    /// ArgumentParser shows its own (the command's own `exit(withError:)` would name it without
    /// `smfplay`).
    private static func exitShowingUsage(of command: any ParsableCommand.Type, _ error: ValidationError) -> Never {
        let name = command == SMFPlay.self ? "smfplay" : "smfplay \(command._commandName)"
        writeToStandardError("Error: \(error.message)\nUsage: \(usageString(for: command))\n  See '\(name) --help' for more information.\n")
        Glibc.exit(ExitStatus.usage.rawValue)
    }
}

extension SMFPlay: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay Chopin/", does: "play a folder, files or a playlist"),
        (command: "smfplay browse", does: "browse the library and play from it"),
        (command: "smfplay render Library -o Rendered", does: "render a folder to audio files"),
    ]
}
