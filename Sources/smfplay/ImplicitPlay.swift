import Configuration
import Files
import Playback

/// `smfplay PATH…` plays, as `smfplay play PATH…`: what people who come from mpv, TiMidity++ or
/// VLC type first. A command's name wins over a file of that name (`./info` plays the file
/// `info`), and a first word that is neither a command nor something there is a usage error with
/// the command it was likely meant to be: `smfplay inof x.mid` must not play x.mid.
enum ImplicitPlay {
    /// ArgumentParser's own options of `smfplay` itself.
    static let rootOptions: Set = ["-h", "--help", "--help-hidden", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// The command line to parse (without the program's name): `arguments` as they are, or with
    /// `play` before them. `commands` are the subcommands' names.
    static func arguments(_ arguments: [String], commands: [String]) throws(CommandFailure) -> [String] {
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
}
