/// Writes HMI songs (`HMI-MIDISONG061595`) for tests, in the layout WildMIDI reads: the tempo at
/// byte 212, the track count at 228, the tracks' offsets from 370, each track an `HMI-MIDITRACK`
/// header of 91 bytes (its length at byte 87) and events as a MIDI file's, a note on followed by
/// its length.
public struct HMIWriter {
    public var beatsPerMinute: UInt8
    /// Each track's events: the ticks since the one before, and the event's bytes.
    public var tracks: [[(delta: UInt32, bytes: [UInt8])]] = []

    public init(beatsPerMinute: UInt8 = 120) {
        self.beatsPerMinute = beatsPerMinute
    }

    /// A MIDI variable-length quantity.
    public static func quantity(_ value: UInt32) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    public func encode() -> [UInt8] {
        var header = Array("HMI-MIDISONG061595".utf8) + [UInt8](repeating: 0, count: 370 - 18)
        header[212] = beatsPerMinute
        header[228] = UInt8(tracks.count)
        let trackData = tracks.map { events -> [UInt8] in
            var track = Array("HMI-MIDITRACK".utf8) + [UInt8](repeating: 0, count: 91 - 13)
            track.replaceSubrange(87..<91, with: Self.littleEndian(91))
            return track + events.flatMap { Self.quantity($0.delta) + $0.bytes }
        }
        var offset = 370 + 4 * tracks.count
        var offsets: [UInt8] = []
        for track in trackData {
            offsets += Self.littleEndian(offset)
            offset += track.count
        }
        return header + offsets + trackData.flatMap { $0 }
    }
}
