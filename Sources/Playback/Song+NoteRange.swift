import SMF

extension Song {
    /// The lowest and highest key its notes strike, on any channel; `nil` when it has no note.
    /// One pass over every event: worked out once, when a song is loaded.
    var noteRange: ClosedRange<UInt8>? {
        var lowest = UInt8.max
        var highest = UInt8.min
        for track in file.tracks {
            for event in track.events where event.startsNote {
                // Damaged files may hold data bytes above 127; the synthesizer masks them.
                let key = event.data1 & 0x7F
                lowest = min(lowest, key)
                highest = max(highest, key)
            }
        }
        return lowest <= highest ? lowest...highest : nil
    }
}
