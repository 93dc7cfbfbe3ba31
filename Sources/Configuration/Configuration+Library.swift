import Files
import SystemPackage

// The `library` key: where the user's MIDI files live.
extension Configuration {
    /// The folder under the music folder that the library is by default.
    public static let defaultLibraryFolderName = "MIDI"

    /// The library folder: the `library` key with `~` expanded, or
    /// `$XDG_MUSIC_DIR/MIDI` (`~/Music/MIDI` on most systems). Absolute, without
    /// `.` parts, doubled or trailing slashes.
    public func libraryRoot(in directories: XDGDirectories) -> FilePath {
        let folder = library.map { directories.expandingTilde(in: $0) } ?? directories.music.appending(Self.defaultLibraryFolderName)
        return folder.absolute(in: "/")
    }

    /// Only an absolute path or one under `~` is taken: a relative one could start at
    /// the configuration file's folder, the home folder or the working directory,
    /// and each would surprise someone.
    static func library(reading table: TableReader) -> String? {
        table.read("library", default: nil, expected: "a folder path in quotes that starts with / or ~/") { value -> String?? in
            guard let text = value.string, text.hasPrefix("/") || text == "~" || text.hasPrefix("~/") else { return nil }
            return .some(text)
        }
    }
}
