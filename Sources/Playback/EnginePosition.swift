/// Where the engine is, as one consistent look: the frame rendered last in the song of
/// `generation`, whether that song and its tail have ended, and the pass through its loop.
/// Taken together (``PlaybackEngine/position``): read one by one, the interface could pair a new
/// song's generation with the old one's end, and stop the queue a song early.
struct EnginePosition: Hashable, Sendable {
    var frame: Int64 = 0
    var generation = -1
    var hasEnded = false
    /// From 1.
    var pass = 1
}
