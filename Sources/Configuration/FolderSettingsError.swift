import Files
import SystemPackage

/// Why a song's folder settings cannot be used. Each prints as one line that starts with the
/// folder file and the line, as the configuration file's errors do. `render` fails the song with
/// it; `play` skips the song.
public enum FolderSettingsError: Error, Sendable, Equatable {
    /// The file cannot be read, is not TOML, or has a key or value smfplay cannot use (the
    /// configuration file's errors, with the same suggestions for a misspelt key).
    case file(ConfigurationError)
    /// `soundfont` names a SoundFont that is not there.
    case soundFont(path: FilePath, line: Int, problem: SoundFontLookupError)

    /// The folder file the error is about.
    public var path: FilePath {
        switch self {
        case .file(let error): error.path
        case .soundFont(let path, _, _): path
        }
    }

    /// The line of the folder file the error is about, counting from 1.
    public var line: Int? {
        switch self {
        case .file(let error): error.line
        case .soundFont(_, let line, _): line
        }
    }
}

extension FolderSettingsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .file(let error): error.description
        case .soundFont(let path, let line, let problem): "\(path.text):\(line): key 'soundfont': \(problem.reason)"
        }
    }
}
