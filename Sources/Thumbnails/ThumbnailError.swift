import Files
import SMF
import SystemPackage

/// Why a thumbnail could not be made. Every message names the file.
public enum ThumbnailError: Error, CustomStringConvertible, Sendable {
    /// The MIDI file could not be read.
    case unreadableSong(SMFFileError)
    /// libpng would not encode the image, in its own words.
    case encodingFailed(path: FilePath, reason: String)
    /// The PNG file could not be written; nothing was left under its name.
    case cannotWrite(FileWriteError)

    public var description: String {
        switch self {
        case .unreadableSong(let error): error.description
        case .encodingFailed(let path, let reason): "\(path.text): cannot encode the PNG image: \(reason)"
        case .cannotWrite(let error): error.description
        }
    }
}
