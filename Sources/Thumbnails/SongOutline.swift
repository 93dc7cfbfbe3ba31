import SMF

/// What a first pass over a song learns, enough to lay out a piano roll before
/// drawing it: the tempo map, the keys its notes use and when the last one ends.
public struct SongOutline: Hashable, Sendable {
    public let tempoMap: TempoMap
    /// The lowest and highest key of any note; `nil` when the song has none.
    public let pitchRange: ClosedRange<UInt8>?
    /// When the last note ends, in seconds from the start.
    public let duration: Double
    public let noteCount: Int

    /// One pass over the stream's events.
    public init(stream: SMFEventStream) throws(SMFError) {
        var pass = OutlinePass()
        try stream.visit(&pass)
        tempoMap = TempoMap(timebase: stream.timebase, tempoChanges: pass.tempoChanges)
        pitchRange = pass.noteCount > 0 ? pass.lowest...pass.highest : nil
        duration = tempoMap.seconds(atTick: pass.endTick)
        noteCount = pass.noteCount
    }
}

/// The first pass: tempo changes, and the notes' keys and end.
private struct OutlinePass: SMFEventVisitor {
    var pairing = NotePairing()
    var tempoChanges: [(tick: UInt64, microsecondsPerQuarterNote: UInt32)] = []
    var lowest = UInt8.max
    var highest = UInt8.min
    var endTick: UInt64 = 0
    var noteCount = 0

    mutating func visitChannelMessage(_ event: TrackEvent, atTick tick: UInt64) {
        if let note = pairing.note(endedBy: event, atTick: tick) { count(note) }
    }

    mutating func visitTempo(microsecondsPerQuarterNote: UInt32, atTick tick: UInt64) {
        tempoChanges.append((tick, microsecondsPerQuarterNote))
    }

    mutating func visitTrackEnd(atTick tick: UInt64) {
        for note in pairing.endAll(atTick: tick) { count(note) }
    }

    private mutating func count(_ note: RollNote) {
        lowest = min(lowest, note.pitch)
        highest = max(highest, note.pitch)
        endTick = max(endTick, note.endTick)
        noteCount += 1
    }
}
