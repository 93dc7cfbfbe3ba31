/// Writes HMP files (Human Machine Interfaces' MIDI) for tests: the first version's 776-byte
/// header, one chunk per track, each event after its HMP delta (7 bits a byte, lowest first, the
/// last byte's top bit set).
public struct HMPWriter {
    public var beatsPerMinute: UInt32
    /// Each track's events: the ticks since the one before, and the event's bytes (status included).
    public var tracks: [[(delta: UInt32, bytes: [UInt8])]] = []

    public init(beatsPerMinute: UInt32 = 120) {
        self.beatsPerMinute = beatsPerMinute
    }

    public static func delta(_ value: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.append(UInt8(rest & 0x7F))
            rest >>= 7
        } while rest > 0
        bytes[bytes.count - 1] |= 0x80
        return bytes
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    public func encode() -> [UInt8] {
        let chunks = tracks.enumerated().map { index, events -> [UInt8] in
            let body = events.flatMap { Self.delta($0.delta) + $0.bytes }
            return Self.littleEndian(UInt32(index)) + Self.littleEndian(UInt32(12 + body.count)) + Self.littleEndian(UInt32(index)) + body
        }
        let body = chunks.flatMap { $0 }
        var header = Array("HMIMIDIP".utf8) + [UInt8](repeating: 0, count: 24)
        header += Self.littleEndian(UInt32(776 - 8 + body.count)) + [UInt8](repeating: 0, count: 12)
        header += Self.littleEndian(UInt32(tracks.count)) + Self.littleEndian(0) + Self.littleEndian(beatsPerMinute) + Self.littleEndian(0)
        header += [UInt8](repeating: 0, count: 712)
        return header + body
    }
}
