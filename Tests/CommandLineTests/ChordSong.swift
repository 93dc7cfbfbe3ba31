import SMF

/// Songs of chords on several channels, for the keyboard and the roll: 120 bpm, 480 ticks per
/// quarter note (960 ticks a second), a church organ (which holds a note as long as it is down)
/// on every channel, each chord on its channel's own track.
enum ChordSong {
    struct Chord {
        var channel: UInt8
        var keys: [UInt8]
        var start: Double
        var end: Double
    }

    /// C4–E4–G4 on channel 1 for 2 s, then D4–F♯4–A4 on channel 2 for 2 s.
    static let twoChords = [
        Chord(channel: 0, keys: [60, 64, 67], start: 0, end: 2),
        Chord(channel: 1, keys: [62, 66, 69], start: 2, end: 4),
    ]

    static func file(_ chords: [Chord]) -> [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0)
        let tracks = chords.map { chord in
            var track = Track()
            let start = UInt32(chord.start * 960)
            let end = UInt32(chord.end * 960)
            track.append(.programChange(channel: chord.channel, program: 19), atTick: start)
            for key in chord.keys { track.append(.noteOn(channel: chord.channel, note: key, velocity: 100), atTick: start) }
            for key in chord.keys { track.append(.noteOff(channel: chord.channel, note: key, velocity: 0), atTick: end) }
            track.append(.meta(.endOfTrack), atTick: end)
            return track
        }
        return SMFWriter().encode(
            MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor] + tracks))
    }

    /// Where a key is drawn, from the column of its octave's C label (`C4` under key 60), as a
    /// person reads a keyboard: the columns of its cell in the top row (a black key, or a white
    /// key's left half when a black key follows it), and its column in the bottom row (white keys).
    static func topColumns(ofKey key: Int, octaveLabelColumn column: Int) -> Range<Int> {
        let topRow = [0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 11]
        let offsets = topRow.indices.filter { topRow[$0] == key % 12 }
        return column + offsets.first!..<column + offsets.last! + 1
    }
}
