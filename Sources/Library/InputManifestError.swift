import Files
import SystemPackage

/// Why a manifest of input files could not be read; the message names it (`-`: standard input).
public enum InputManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(FilePath, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path == "-" ? "standard input" : path.text): cannot read the manifest: \(reason)"
        }
    }
}
