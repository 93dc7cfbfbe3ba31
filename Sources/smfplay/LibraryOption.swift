import ArgumentParser
import Configuration
import Foundation

/// `--library`: the folder of the user's MIDI files, which the browser opens and the resume state
/// stores its paths relative to.
struct LibraryOption: ParsableArguments {
    @Option(help: ArgumentHelp("The library folder (default: the configuration's library, else $XDG_MUSIC_DIR/MIDI or ~/Music/MIDI).",
                               valueName: "folder"), completion: .directory)
    var library: String?

    /// The library folder as an absolute path.
    func root(configuration: Configuration) -> String {
        guard let library else { return configuration.libraryRoot(in: XDGDirectories.current()) }
        return URL(fileURLWithPath: library).standardizedFileURL.path
    }
}
