/// A command whose arguments name files. An empty one is refused before the command runs, in one
/// line: the file layer takes an empty path for the working folder (it prints as "."), so the
/// message was ".: no such file or directory", which says nothing of what went wrong, and the
/// other files went on. An empty argument is nearly always a shell variable that is unset
/// (`smfplay play "$SONG"`).
protocol PathArguments {
    /// The arguments that name files or folders, as given.
    var pathArguments: [String] { get }
}

extension PathArguments {
    static var emptyPathMessage: String { "an empty path is not a file" }

    /// Stops with one line and the usage status when a path argument is empty. `main` calls it
    /// between parsing and running, before the other checks of the arguments (`ArgumentChecks`).
    func refuseEmptyPaths() throws(CommandFailure) {
        guard pathArguments.contains("") else { return }
        throw .usage(Self.emptyPathMessage)
    }
}

// The commands that take files, in one place.
extension Play: PathArguments {
    var pathArguments: [String] { paths }
}

extension Render: PathArguments {
    var pathArguments: [String] { inputs + (output.map { [$0] } ?? []) }
}

extension Info: PathArguments {
    var pathArguments: [String] { paths }
}

extension LyricsCommand: PathArguments {
    var pathArguments: [String] { [file] }
}

extension Thumbnail: PathArguments {
    var pathArguments: [String] { [input, output] }
}

extension Import: PathArguments {
    var pathArguments: [String] { files }
}

extension ReportCommand: PathArguments {
    var pathArguments: [String] { files }
}
