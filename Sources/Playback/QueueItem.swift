import Files
import SystemPackage

/// What the play queue holds: a MIDI file, or the song piped in on standard input
/// (`curl … | smfplay play -`), which has no path and can be read only once: the command reads it
/// before anything plays and hands the song to the player (``Player/preloadedSongs``).
public enum QueueItem: Hashable, Sendable {
    case file(FilePath)
    case standardInput

    /// The file, or nil for standard input: nothing can open it again.
    public var file: FilePath? {
        switch self {
        case .file(let path): path
        case .standardInput: nil
        }
    }

    /// How messages name it: the path as given, or "standard input".
    public var displayName: String {
        switch self {
        case .file(let path): path.text
        case .standardInput: StandardInput.name
        }
    }
}
