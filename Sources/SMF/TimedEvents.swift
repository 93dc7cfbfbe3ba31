/// Messages gathered at their ticks in any order, as XMI and HMI give note offs (a note's length
/// after its note on), then laid into a track in time order.
struct TimedEvents {
    private var events: [(tick: UInt64, order: Int, message: MIDIMessage)] = []

    /// `message` at `tick`, after what came before it there.
    mutating func append(_ message: MIDIMessage, atTick tick: UInt64) {
        events.append((tick, events.count * 2 + 1, message))
    }

    /// A note's end, before what else happens at its tick, so that a note struck again there sounds.
    mutating func appendNoteOff(channel: UInt8, note: UInt8, atTick tick: UInt64) {
        events.append((tick, 0, .noteOff(channel: channel, note: note, velocity: 0)))
    }

    /// The events in time order after `track`'s, ended at `end` (or as near as the track holds);
    /// refused, naming the events' `offset`, when they lie further apart than a track can say.
    func laid(into track: Track = Track(), endingAt end: UInt64, offset: Int) throws(SMFError) -> Track {
        var track = track
        for event in events.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) {
            guard event.tick <= UInt64(UInt32.max), event.tick - UInt64(track.lengthInTicks) <= UInt64(Track.maximumDelta) else {
                throw .trackTooLong(offset: offset, track: 1)
            }
            track.append(event.message, atTick: UInt32(event.tick))
        }
        track.appendEnd(atTick: end)
        return track
    }
}
