import ArgumentParser
import Configuration
import Library
import SystemPackage

/// `--library`: the folder of the user's MIDI files, which the browser opens and the resume state
/// stores its paths relative to.
struct LibraryOption: ParsableArguments {
    @Option(help: ArgumentHelp("The library folder (default: the configuration's library, else $XDG_MUSIC_DIR/MIDI or ~/Music/MIDI).",
                               valueName: "folder"), completion: .directory)
    var library: String?

    /// An empty `--library` (an unset shell variable) would mean the working folder: refused.
    func checkOwnArguments() throws {
        if library == "" { throw ValidationError("--library needs a folder") }
    }

    /// The library folder as an absolute path, its name's bytes as given.
    func root(configuration: Configuration) -> FilePath {
        guard let library else { return configuration.libraryRoot(in: XDGDirectories.current()) }
        return Self.absolute(library)
    }

    /// A folder given on the command line as an absolute path, lexically normal.
    static func absolute(_ argument: String) -> FilePath {
        var path = CommandLinePath.filePath(argument).absolute()
        path.lexicallyNormalize()
        return path
    }
}

extension LibraryOption: ArgumentChecks {
}
