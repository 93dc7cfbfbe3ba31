import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Why a folder cannot be listed; the message names the folder.
public struct FolderListingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        case permissionDenied
        case missing
        case notAFolder
        /// Anything rarer, as the system words it.
        case other(String)

        init(errno code: Int32) {
            switch code {
            case EACCES, EPERM: self = .permissionDenied
            case ENOENT: self = .missing
            case ENOTDIR: self = .notAFolder
            default: self = .other(String(cString: strerror(code)))
            }
        }

        public var description: String {
            switch self {
            case .permissionDenied: "permission denied"
            case .missing: "no such folder"
            case .notAFolder: "not a folder"
            case .other(let message): message
            }
        }
    }

    public let folder: FilePath
    public let reason: Reason

    public var description: String { "\(folder.text): cannot open folder: \(reason)" }
}
