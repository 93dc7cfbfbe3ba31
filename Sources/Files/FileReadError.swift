import SystemPackage

/// Why a file could not be opened or read as a regular file. The caller names the file.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing
    /// A folder is where the file should be.
    case folder
    /// A device, a FIFO or a socket is where the file should be.
    case notARegularFile
    /// Larger than any file of its kind.
    case tooLarge(size: Int64, limit: Int)
    case system(Errno)

    public var description: String {
        switch self {
        case .missing: "no such file"
        case .folder: "a folder is in its place"
        case .notARegularFile: "not a regular file"
        case .tooLarge(let size, let limit): "\(size) bytes, more than the \(limit) it can be"
        case .system(let code): SystemError.text(code.rawValue)
        }
    }
}
