import SystemPackage

/// Why a MIDI file on disk could not be read. Every message names the file.
public enum SMFFileError: Error, Hashable, Sendable {
    /// The file could not be opened or read; `reason` is the system's word for why.
    case unreadable(path: FilePath, reason: String)
    /// A folder, a device or a pipe where a file was expected.
    case notARegularFile(path: FilePath)
    /// Larger than the reader accepts.
    case tooLarge(path: FilePath, size: Int, limit: Int)
    /// Read, but not a MIDI file the reader can use.
    case invalid(path: FilePath, SMFError)

    /// The file the error is about.
    public var path: FilePath {
        switch self {
        case .unreadable(let path, _), .notARegularFile(let path), .tooLarge(let path, _, _), .invalid(let path, _): path
        }
    }
}

extension SMFFileError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path.text): cannot read: \(reason)"
        case .notARegularFile(let path): "\(path.text): not a regular file"
        case .tooLarge(let path, let size, let limit): "\(path.text): file is \(size) bytes, more than the \(limit) bytes a MIDI file may have here"
        case .invalid(let path, let error): "\(path.text): \(error)"
        }
    }
}
