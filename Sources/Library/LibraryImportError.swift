import Files
import SMF
import SystemPackage

/// Why a file was not imported. Each message is one line that names the file.
public enum LibraryImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start like a MIDI file, whatever its name.
    case notMIDI(path: FilePath)
    /// A folder was given where a file was expected.
    case isFolder(path: FilePath)
    case unreadable(path: FilePath, reason: String)
    /// The library folder, or something on the way to it, cannot be made or written.
    case cannotWrite(path: FilePath, reason: String)
    /// The disk (or the user's quota) is full: the copy of the file to `path` was not made, and
    /// no other file can be.
    case diskFull(path: FilePath, errno: Int32)

    /// Whether no other file can be imported either.
    public var isDiskFull: Bool {
        if case .diskFull = self { true } else { false }
    }

    /// The file the message is about.
    public var path: FilePath {
        switch self {
        case .notMIDI(let path), .isFolder(let path), .unreadable(let path, _), .cannotWrite(let path, _), .diskFull(let path, _): path
        }
    }

    public var description: String {
        switch self {
        case .notMIDI(let path): "\(path.text): \(MIDIFileSignature.mismatch); not imported"
        case .isFolder(let path): "\(path.text): is a folder, not a file; not imported"
        case .unreadable(let path, let reason): "\(path.text): cannot read: \(reason); not imported"
        case .cannotWrite(let path, let reason): "\(path.text): cannot write: \(reason)"
        case .diskFull(let path, let errno): "\(path.text): cannot write: \(SystemError.text(errno)); not imported"
        }
    }
}
