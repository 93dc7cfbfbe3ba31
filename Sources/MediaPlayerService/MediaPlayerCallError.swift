import Files
import SMF
import SystemPackage

/// A call an MPRIS client made that smfplay refuses, sent back as a D-Bus error whose name says
/// what went wrong and whose message says it to a person.
public enum MediaPlayerCallError: Error, Equatable {
    /// OpenUri with a URI that is not a local file's (`file:///…`).
    case notAFileURI(String)
    case missingFile(FilePath)
    case notAMIDIFile(FilePath)
    /// Rate outside 0.25–4 (0 pauses, as the specification asks).
    case rateOutOfRange(Double)
    /// LoopStatus other than None, Track or Playlist.
    case unknownLoopStatus(String)
    /// The arguments could not be read as their signature says, in sd-bus' words.
    case unreadableArguments(String)

    /// `org.mpris.MediaPlayer2.smfplay.Error.<Kind>`.
    public var name: String {
        let kind =
            switch self {
            case .notAFileURI: "NotAFileURI"
            case .missingFile: "NoSuchFile"
            case .notAMIDIFile: "NotAMIDIFile"
            case .rateOutOfRange: "RateOutOfRange"
            case .unknownLoopStatus: "UnknownLoopStatus"
            case .unreadableArguments: "UnreadableArguments"
            }
        return "org.mpris.MediaPlayer2.smfplay.Error." + kind
    }

    public var message: String {
        switch self {
        case .notAFileURI(let uri): "\(uri): smfplay opens local files only (file:///…)"
        case .missingFile(let path): "\(path.text): no such file"
        case .notAMIDIFile(let path): "\(path.text): \(MIDIFileSignature.mismatch)"
        case .rateOutOfRange(let rate): "a rate of \(rate) is out of range: smfplay plays from 0.25 to 4 times as fast (0 pauses)"
        case .unknownLoopStatus(let text): "\(text) is not a loop status: None, Track or Playlist"
        case .unreadableArguments(let reason): "the arguments could not be read: \(reason)"
        }
    }
}
