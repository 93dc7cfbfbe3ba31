import Loudness
import SMF
import SystemPackage

/// A song the player handed to the engine, with what the snapshots show of it, worked out once.
struct LoadedSong {
    /// Shared with the engine, which alone plays it: the player reads what never changes in it
    /// (the song, its length and loop, seek plans).
    var song: PlayingSong
    /// Its place in the queue's playing order.
    var place: Int
    var noteRange: ClosedRange<UInt8>?
    var meter: MeterMap?
    var usedChannels: UInt16
    /// How its texts are read, when its own settings say (nil: as the session reads them).
    var textDecoding: TextDecoding?
    /// Its loudness as kept (nil: unknown so far, or not normalized), and what it is kept under.
    var loudnessKey: SongSoundKey?
    var unityLoudness: Loudness?
    /// The folder it was played from, with `--loudness folder` (nil otherwise).
    var folder: FilePath?
    /// What its loudness gain was set from (nil: none yet).
    var levelledBy: LoudnessLevelling?
}
