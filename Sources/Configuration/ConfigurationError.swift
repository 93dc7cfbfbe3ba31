import Files
import SystemPackage

/// Why a configuration file cannot be used. Each one prints as one line that starts
/// with the file (and the line, when there is one), in the `file:line:` form editors
/// and terminals know how to jump to.
public enum ConfigurationError: Error, Sendable, Equatable {
    /// A file named on the command line does not exist. (A missing file in the
    /// default place is not an error: every setting keeps its default.)
    case missingFile(path: FilePath)
    /// The file exists but cannot be used as text: a folder, no permission, too large.
    /// `reason` finishes the sentence after the path.
    case unreadable(path: FilePath, reason: String)
    /// The text is not TOML; `message` is the parser's.
    case syntax(path: FilePath, line: Int, column: Int, message: String)
    /// A known key with a value smfplay cannot use. `key` is the dotted path
    /// (`reverb.level`), `expected` describes what is allowed and `found` is the value
    /// as TOML would write it.
    case invalidValue(path: FilePath, line: Int, key: String, expected: String, found: String)
    /// A key smfplay does not know, most likely a typo; `suggestion` is the closest
    /// known key, if one is close.
    case unknownKey(path: FilePath, line: Int, key: String, suggestion: String?)

    /// The configuration file the error is about.
    public var path: FilePath {
        switch self {
        case .missingFile(let path), .unreadable(let path, _), .syntax(let path, _, _, _),
            .invalidValue(let path, _, _, _, _), .unknownKey(let path, _, _, _):
            path
        }
    }

    /// The line of the file the error is about, counting from 1.
    public var line: Int? {
        switch self {
        case .missingFile, .unreadable: nil
        case .syntax(_, let line, _, _), .invalidValue(_, let line, _, _, _), .unknownKey(_, let line, _, _): line
        }
    }
}

extension ConfigurationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missingFile(let path):
            "\(path.text): no such configuration file"
        case .unreadable(let path, let reason):
            "\(path.text): \(reason)"
        case .syntax(let path, let line, let column, let message):
            "\(path.text):\(line):\(column): \(message)"
        case .invalidValue(let path, let line, let key, let expected, let found):
            "\(path.text):\(line): key '\(key)' must be \(expected), not \(found)"
        case .unknownKey(let path, let line, let key, let suggestion?):
            "\(path.text):\(line): unknown key '\(key)' (did you mean '\(suggestion)'?)"
        case .unknownKey(let path, let line, let key, nil):
            "\(path.text):\(line): unknown key '\(key)'"
        }
    }
}
