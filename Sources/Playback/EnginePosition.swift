/// Where the engine is: the frame rendered last in the song of `generation`, whether that song
/// and its tail have ended, and the pass through its loop. Part of ``EngineState``, read with it
/// as one look.
struct EnginePosition: Hashable, Sendable {
    var frame: Int64 = 0
    var generation = -1
    var hasEnded = false
    /// From 1.
    var pass = 1
}
