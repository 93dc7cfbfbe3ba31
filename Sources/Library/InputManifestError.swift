import Files
import SystemPackage

/// Why a manifest of input files could not be read; the message names it.
public enum InputManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(FilePath, String)
    /// `--manifest -`.
    case unreadableStandardInput(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path.text): cannot read the manifest: \(reason)"
        case .unreadableStandardInput(let reason): "standard input: cannot read the manifest: \(reason)"
        }
    }
}
