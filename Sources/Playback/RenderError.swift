import AudioOutput
import SMF
import Synthesis

/// Why a song could not be rendered. Each message names the file at fault.
public enum RenderError: Error, Sendable {
    case unreadableSong(SMFFileError)
    case synthesizer(SynthesisError)
    case output(AudioFileError)
}

extension RenderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadableSong(let error): error.description
        case .synthesizer(let error): error.description
        case .output(let error): error.description
        }
    }
}
