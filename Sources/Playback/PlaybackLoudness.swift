import Loudness
import SystemPackage

/// Songs brought to one loudness as they play (`--loudness track` or `folder`): each song's
/// measured loudness, or its folder's (kept in a ``LoudnessMemory``, or measured in the background
/// while others play), sets a gain before the limiter, `target` saying to what.
public struct PlaybackLoudness: Sendable {
    public var target: LoudnessTarget
    /// Opens where songs' loudness is kept: called once, on a thread of its own once the first
    /// sound is out, so that it costs the first sound nothing. What it is given
    /// is where the memory says its problems, from any thread (the player reports them with its
    /// own). Nil: songs play as they sound.
    public var openMemory: @Sendable (_ warn: @escaping @Sendable (String) -> Void) -> (any LoudnessMemory)?
    /// With `--loudness folder`, the songs of a folder (its MIDI files, not those of the folders
    /// in it), whose loudness together sets the gain of each: called on the background measurer's
    /// thread. Nil: each song on its own (`track`).
    public var folderSongs: (@Sendable (FilePath) -> [FilePath])?

    public init(
        target: LoudnessTarget, openMemory: @escaping @Sendable (_ warn: @escaping @Sendable (String) -> Void) -> (any LoudnessMemory)?,
        folderSongs: (@Sendable (FilePath) -> [FilePath])? = nil
    ) {
        self.target = target
        self.openMemory = openMemory
        self.folderSongs = folderSongs
    }
}
