/// What the player is doing, as MPRIS clients are shown it: the play loop publishes one after
/// every update, and the bus thread answers from the latest.
public struct MediaPlayerState: Equatable, Sendable {
    public enum PlaybackStatus: String, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    /// The queue's repeat modes, in MPRIS' words: off, one file, the whole queue.
    public enum LoopStatus: String, Sendable, CaseIterable {
        case none = "None"
        case track = "Track"
        case playlist = "Playlist"
    }

    public var status: PlaybackStatus
    public var loopStatus: LoopStatus
    /// Whether the queue plays in a shuffled order (fixed when it was made).
    public var shuffle: Bool
    /// How much faster than written the song plays.
    public var rate: Double
    /// The song playing, or nil.
    public var track: MediaPlayerTrack?
    /// Time into the song heard now, in microseconds of the song's own time (a rate of 2 moves it
    /// two seconds a second).
    public var positionMicroseconds: Int64
    /// Whether Next goes to another song: not on the queue's last with the queue not repeated.
    public var canGoNext: Bool

    public init(
        status: PlaybackStatus = .stopped, loopStatus: LoopStatus = .none, shuffle: Bool = false, rate: Double = 1,
        track: MediaPlayerTrack? = nil, positionMicroseconds: Int64 = 0, canGoNext: Bool = true
    ) {
        self.status = status
        self.loopStatus = loopStatus
        self.shuffle = shuffle
        self.rate = rate
        self.track = track
        self.positionMicroseconds = positionMicroseconds
        self.canGoNext = canGoNext
    }

    /// The slowest and fastest rates, as `Performance.tempoRange` has them.
    public static let rateRange = 0.25...4.0

    /// The properties of the Player interface whose values differ from `other`'s, for
    /// PropertiesChanged (Position is never signalled: clients ask for it, or follow Seeked).
    func changedProperties(since other: MediaPlayerState) -> [String] {
        var names: [String] = []
        if status != other.status { names.append("PlaybackStatus") }
        if loopStatus != other.loopStatus { names.append("LoopStatus") }
        if shuffle != other.shuffle { names.append("Shuffle") }
        if rate != other.rate { names.append("Rate") }
        if track != other.track { names.append("Metadata") }
        if canGoNext != other.canGoNext { names.append("CanGoNext") }
        return names
    }
}
