import AudioOutput
import Files
import SMF
import Synthesis
import SystemPackage

/// Why a song could not be rendered. Each message names the file at fault.
public enum RenderError: Error, Sendable {
    case unreadableSong(SMFFileError)
    case synthesizer(SynthesisError)
    case output(AudioFileError)
    /// Stopped on request (Ctrl-C); nothing was left under the output's name.
    case cancelled(output: FilePath)
    /// Stopped on request while streaming (`render -o -`): what went out is the song's beginning.
    case cancelledStream(name: String)
    /// Stopped on request while measuring the song's loudness: nothing was kept of it.
    case cancelledMeasuring(song: FilePath)
    /// The song's own settings could not be had (a folder's settings file that is wrong for it).
    case songSettings(song: FilePath, SongSettingsProblem)
    /// The folder for a song's stems could not be made.
    case outputFolder(FilePath.FolderCreationError)
    /// Loudness was to be measured (`--normalize`, `index --loudness`) and libebur128, opened at its first use, could not be.
    case loudnessUnmeasurable(reason: String)
    /// The song lasts longer than ``SMF/Song/longestRendered`` as written.
    case tooLong(song: String, seconds: Double)
}

extension RenderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadableSong(let error): error.description
        case .synthesizer(let error): error.description
        case .output(let error): error.description
        case .cancelled(let output): "\(output.text): stopped before it was complete; nothing was written"
        case .cancelledStream(let name): "\(name): stopped before the end of the song"
        case .cancelledMeasuring(let song): "\(song.text): stopped before its loudness was measured"
        case .songSettings(let song, let error): "\(song.text): \(error.description)"
        case .outputFolder(let error): error.description
        case .loudnessUnmeasurable(let reason): "cannot measure loudness: \(reason)"
        case .tooLong(let song, let seconds):
            "\(song): lasts \(Int(seconds / 3600)) hours as written, more than a day: not rendered (a damaged file, most likely)"
        }
    }
}
