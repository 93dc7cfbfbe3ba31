import Files
import SystemPackage

/// Why no SoundFont could be chosen. Each prints as one line that says which setting
/// asked for what, or every place that was looked in.
public enum SoundFontLookupError: Error, Sendable, Equatable {
    /// Which setting named the SoundFont.
    public enum Source: Sendable, Equatable {
        /// `--soundfont`.
        case commandLine
        /// `soundfont =` in the configuration file at `path` (nil if not known).
        case configuration(path: FilePath?)
    }

    /// A path that names nothing. It is an error rather than a reason to look
    /// elsewhere: rendering with another SoundFont than the one asked for is a
    /// surprise found only on listening.
    case missing(path: FilePath, source: Source)
    /// The file exists but this user may not read it.
    case unreadable(path: FilePath, source: Source)
    /// A device, a pipe or a socket.
    case notAFile(path: FilePath, source: Source)
    /// A folder with no `.sf2` or `.sf3` file in it.
    case emptyFolder(path: FilePath, source: Source)
    /// A bare name that no file in the folders matches; `known` names the SoundFonts that are
    /// there, as they can be asked for.
    case unknownName(name: String, source: Source, searched: [FilePath], known: [String])
    /// Nothing was asked for and none of the usual places has a SoundFont.
    /// `installFolder` is where the message suggests putting one.
    case nothingFound(searched: [FilePath], installFolder: FilePath?)
}

extension SoundFontLookupError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missing(_, let source), .unreadable(_, let source), .notAFile(_, let source), .emptyFolder(_, let source),
            .unknownName(_, let source, _, _):
            "\(source.label): \(reason)"
        case .nothingFound:
            reason
        }
    }

    /// What went wrong, without the setting that asked: for a message that names the setting its
    /// own way (a folder file's `file:line: key 'soundfont':`).
    public var reason: String {
        switch self {
        case .missing(let path, _):
            "no such file: \(path.text)"
        case .unreadable(let path, _):
            "cannot read \(path.text): permission denied"
        case .notAFile(let path, _):
            "not a SoundFont file: \(path.text)"
        case .emptyFolder(let path, _):
            "no .sf2 or .sf3 file in \(path.text)"
        case .unknownName(let name, _, let searched, let known):
            "no SoundFont named '\(name)'"
                + (NameSuggestion.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? "")
                + " in \(searched.map(\.text).joined(separator: ", "))"
                + (known.isEmpty ? "" : "; there: \(known.joined(separator: ", "))")
        case .nothingFound(let searched, let installFolder):
            "no SoundFont found; looked in: \(searched.map(\.text).joined(separator: ", ")); install fluid-soundfont-gm"
                + (installFolder.map { " or put a .sf2 file in \($0.text)" } ?? "")
        }
    }
}

extension SoundFontLookupError.Source {
    /// The setting, as the user wrote it.
    var label: String {
        switch self {
        case .commandLine: "--soundfont"
        case .configuration(let path?): "soundfont in \(path.text)"
        case .configuration(nil): "the configuration's soundfont"
        }
    }
}

extension SoundFontLookupError {
    /// Whether `--soundfont` gave a name that names no SoundFont: a wrong command line, where a
    /// path that is not there is a file that could not be read, as with any other file.
    public var isWrongCommandLine: Bool {
        if case .unknownName(_, .commandLine, _, _) = self { return true }
        return false
    }
}
