import SMF
import Synthesis

/// What the player is doing, as the user hears it.
public struct PlayerSnapshot: Hashable, Sendable {
    /// The queue item being heard (a file, or the song from standard input), and its place in the
    /// queue (0-based) and the queue's length.
    public var item: QueueItem?
    public var place: Int
    public var queueLength: Int
    /// Time into the file of what is being heard now (the output's latency taken off).
    public var heardSeconds: Double
    /// The same place in the song's ticks.
    public var heardTick: UInt64
    public var durationSeconds: Double
    public var isPaused: Bool
    /// Tempo at the heard position, in beats per minute as heard (the listener's tempo applied);
    /// `nil` for SMPTE-timed files.
    public var tempoBPM: Double?
    /// The queue has run out.
    public var hasEnded: Bool
    public var underruns: Int
    /// For each key, 0–127, the channels holding it down (bit c for channel c, 0–63), or that
    /// struck it, as heard: a look at the keys taken at one snapshot shows in the first snapshot
    /// after the output has played what was rendered by then (see `HeardLooks`).
    public var pressedKeys: [UInt64]
    /// The lowest and highest key the song plays; `nil` when it has no note (or nothing plays).
    public var noteRange: ClosedRange<UInt8>?
    /// The listener's transposition, tempo and channels (the same for every song).
    public var performance = Performance()
    /// The pass through the song's loop being heard, from 1, and how many it plays in all (1
    /// without a loop, `nil` for ever).
    public var pass = 1
    public var passCount: Int? = 1
    /// The 16 channels: instrument and activity, as heard (as `pressedKeys`).
    public var channels: [ChannelSnapshot] = []
    /// The bar and beat heard, from the song's time signatures; `nil` for SMPTE-timed files.
    public var barBeat: MeterMap.Place?
    /// A new number whenever a song starts, the same file again (`--repeat one`) included.
    public var start = -1
    /// The synthesizers the song plays on, each on a core of its own (``SongSplit``).
    public var cores = 1
    /// The share of real time the audio thread spends rendering (``PlaybackEngine/renderLoad``).
    public var renderLoad = 0.0
    /// The song's loudness and the gain that brings it to the target; nil when songs play as
    /// they sound (`--loudness off`).
    public var loudness: PlayedLoudness?
    /// The output was lost (the sound server gone): the player keeps its place and tries to open it
    /// again.
    public var isOutputLost = false
}
