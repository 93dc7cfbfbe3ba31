/// What ``SMFEventStream`` tells as it walks a file: every channel message,
/// every tempo change and the end of every track, with ticks on the song's
/// time line (see ``Timeline``).
public protocol SMFEventVisitor {
    /// A channel message (note, controller, program, pressure, pitch bend).
    /// `tick` is on the song's time line; `event.tick` counts from the track's start.
    mutating func visitChannelMessage(_ event: TrackEvent, atTick tick: UInt64)

    /// A tempo event that ``TempoMap`` uses (3 bytes, not 0). An SMPTE division
    /// has no use for it, but it is visited all the same.
    mutating func visitTempo(microsecondsPerQuarterNote: UInt32, atTick tick: UInt64)

    /// A track's end: `tick` is the time line tick of its last event (End of
    /// Track included), or of its start when it has no event.
    mutating func visitTrackEnd(atTick tick: UInt64)
}
