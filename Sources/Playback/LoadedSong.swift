import Loudness
import SMF

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
}
