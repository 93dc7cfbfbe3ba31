/// What the player is doing, as the user hears it.
public struct PlayerSnapshot: Hashable, Sendable {
    /// The file being heard, and its place in the queue (0-based) and the queue's length.
    public var file: String?
    public var place: Int
    public var queueLength: Int
    /// Time into the file of what is being heard now (the output's latency taken off).
    public var heardSeconds: Double
    public var durationSeconds: Double
    public var isPaused: Bool
    /// Tempo at the heard position, in beats per minute; `nil` for SMPTE-timed files.
    public var tempoBPM: Double?
    /// The queue has run out.
    public var hasEnded: Bool
    public var underruns: Int
}
