import ArgumentParser

@main
struct SMFPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smfplay",
        abstract: "Play, render and inspect Standard MIDI Files.",
        version: "0.1.0",
        subcommands: [Info.self, Render.self, ReportCommand.self, Play.self, Resume.self, Browse.self, IndexCommand.self, Search.self, Thumbnail.self, Import.self, LyricsCommand.self]
    )

    static func main() {
        // Before ArgumentParser: the first sound waits for the SoundFont's load, not for both.
        PlayPreload.start(arguments: CommandLine.arguments)
        // ArgumentParser's own `main`, with the check of empty paths between parsing and running.
        do {
            var command = try parseAsRoot(EmptyOptionValues.writtenOut(in: Array(CommandLine.arguments.dropFirst())))
            try (command as? any PathArguments)?.refuseEmptyPaths()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
