import ArgumentParser
import Configuration
import Files
import Library
import SystemPackage

/// `--library`: the folder of the user's MIDI files, which the browser opens and the resume state
/// stores its paths relative to.
struct LibraryOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The library folder (default: the configuration's library, else $XDG_MUSIC_DIR/MIDI or ~/Music/MIDI).",
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

    /// The library folder, which must be there; when it is not, why, in one line that says what
    /// the library is and how to set it, and which offers the music folder when it holds MIDI
    /// files. Never the working folder or the home in its place: indexing either by surprise
    /// reads every file under it.
    func existingRoot(configuration: Configuration) throws(CommandFailure) -> FilePath {
        let root = root(configuration: configuration)
        guard !root.isFolder else { return root }
        // A file there is named as such: "no such folder" would send the user looking for it.
        let missing = root.kind == nil ? "no such folder" : "not a folder"
        if library != nil { throw CommandFailure("\(root.text): \(missing) (--library)") }
        let directories = XDGDirectories.current()
        if configuration.library != nil {
            throw CommandFailure("\(root.text): \(missing) (library in \(configuration.path?.text ?? "the configuration"))")
        }
        let configurationFile = ConfigurationFile.standardPath(in: directories).text
        let music =
            FolderListing.holdsMIDIFiles(directories.music) ? "; \(directories.music.text) holds MIDI files: --library \(directories.music.text)" : ""
        throw CommandFailure(
            "no library folder: the library is the folder of your MIDI files, which browse opens and search and index "
                + "look in; by default \(root.text), which is not there. Give one with --library FOLDER, or set library = \"FOLDER\" "
                + "in \(configurationFile)\(music)")
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
