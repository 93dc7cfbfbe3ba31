import SMF

/// Pairs the note-ons of one track with the note-offs that end them, keeping
/// only the notes that are sounding: one slot per channel and key.
///
/// A note-on for a key already sounding on its channel ends the note before it
/// (players retrigger the key). A note still sounding when its track ends lasts
/// to the track's end: notes are paired within a track, as they are written.
struct NotePairing {
    private struct Sounding {
        var startTick: UInt64
        var velocity: UInt8
    }

    private var sounding = [Sounding?](repeating: nil, count: 16 * 128)
    private var soundingCount = 0

    /// The note that `event` ends, if it ends one; any other channel message ends none.
    mutating func note(endedBy event: TrackEvent, atTick tick: UInt64) -> RollNote? {
        guard event.startsNote || event.endsNote else { return nil }
        // Damaged files may hold data bytes above 127; players mask them.
        let pitch = event.data1 & 0x7F
        let slot = Int(event.channel) * 128 + Int(pitch)
        var ended: RollNote?
        if let held = sounding[slot] {
            ended = RollNote(channel: event.channel, pitch: pitch, velocity: held.velocity, startTick: held.startTick, endTick: tick)
            sounding[slot] = nil
            soundingCount -= 1
        }
        if event.startsNote {
            sounding[slot] = Sounding(startTick: tick, velocity: event.data2 & 0x7F)
            soundingCount += 1
        }
        return ended
    }

    /// Ends every note still sounding at the end of a track, ready for the next track.
    mutating func endAll(atTick tick: UInt64) -> [RollNote] {
        guard soundingCount > 0 else { return [] }
        var notes: [RollNote] = []
        for slot in sounding.indices {
            guard let held = sounding[slot] else { continue }
            notes.append(
                RollNote(
                    channel: UInt8(slot / 128), pitch: UInt8(slot % 128), velocity: held.velocity,
                    startTick: held.startTick, endTick: tick))
            sounding[slot] = nil
        }
        soundingCount = 0
        return notes
    }
}
