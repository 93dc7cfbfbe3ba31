/// What the engine publishes for the interface, taken as one look (``PlaybackEngine/state``):
/// read field by field, the interface could pair a new song's generation with the old one's end
/// and stop the queue a song early, or take a release for faded before the notes were released.
struct EngineState: Hashable, Sendable {
    var position = EnginePosition()
    /// After `releaseAll`: the released notes have faded below hearing.
    var releaseHasFaded = false
    /// After `hold`: the sound has faded out and the song stands still.
    var isHeld = false
    /// The number of the last seek the engine followed or dropped (seeks and replacements are
    /// numbered in the order they are posted); -1 before the first.
    var followedSeek = -1
    /// Output frames rendered and not yet handed to the output: the limiter's look-ahead, once
    /// its delay line is filled. They are heard after what the output holds.
    var lookAheadFrames = 0
    /// The share of real time the audio thread spent rendering over the last half second of audio
    /// or more: 1 or above, it cannot keep up, and the output runs dry.
    var renderLoad = 0.0
}
