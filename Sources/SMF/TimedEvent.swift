/// An event placed on the song's time line, ready for a sequencer.
public struct TimedEvent: Hashable, Sendable {
    /// Seconds from the start of the song.
    public var seconds: Double
    /// Ticks from the start of the song's time line (format 2 patterns are offset).
    public var tick: UInt64
    /// The index of the track the event comes from.
    public var track: Int
    /// The event as stored in its track (its `tick` counts from the track's start).
    public var event: TrackEvent
}
