/// A meta event (status 0xFF), decoded by type.
///
/// A meta event whose length does not fit its type (a 3-byte key signature,
/// say) decodes as ``unknown(type:data:)`` with its bytes kept: it is never a
/// reason to reject a file.
public enum MetaEvent: Hashable, Sendable {
    /// 0x00: the sequence number of a format 2 pattern; `nil` when the event has no data.
    case sequenceNumber(UInt16?)
    /// 0x01–0x09: a text event of the given kind, as raw bytes (see ``TextDecoding``).
    case text(TextKind, [UInt8])
    /// 0x20: the MIDI channel (0–15) that the following meta and sysex events refer to.
    case channelPrefix(UInt8)
    /// 0x21: the output port number.
    case port(UInt8)
    /// 0x2F: end of track.
    case endOfTrack
    /// 0x51: set tempo, in microseconds per quarter note.
    case tempo(microsecondsPerQuarterNote: UInt32)
    /// 0x54: the SMPTE time at which the track starts.
    case smpteOffset(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, hundredthsOfFrame: UInt8)
    /// 0x58: time signature; the denominator is `1 << denominatorPower`.
    case timeSignature(numerator: UInt8, denominatorPower: UInt8, clocksPerMetronomeClick: UInt8, thirtySecondNotesPerQuarter: UInt8)
    /// 0x59: key signature: sharps (positive) or flats (negative), and major or minor.
    case keySignature(sharpsOrFlats: Int8, isMinor: Bool)
    /// 0x7F: sequencer-specific data.
    case sequencerSpecific([UInt8])
    /// Any other type, or a known type with a length that does not fit it.
    case unknown(type: UInt8, data: [UInt8])

    /// The kinds of text meta event, by their type byte.
    public enum TextKind: UInt8, Hashable, Sendable, CaseIterable {
        case text = 0x01
        case copyright = 0x02
        case trackName = 0x03
        case instrumentName = 0x04
        case lyric = 0x05
        case marker = 0x06
        case cuePoint = 0x07
        case programName = 0x08
        case deviceName = 0x09
    }

    /// Meta types whose data has a fixed length, with that length.
    static func expectedLength(ofType type: UInt8) -> Int? {
        switch type {
        case 0x00: 2
        case 0x20, 0x21: 1
        case 0x2F: 0
        case 0x51: 3
        case 0x54: 5
        case 0x58: 4
        case 0x59: 2
        default: nil
        }
    }

    /// Decodes a meta event from its type byte and data.
    public init(type: UInt8, data: some Collection<UInt8>) {
        let bytes = Array(data)
        if let expected = Self.expectedLength(ofType: type), bytes.count != expected,
            !(type == 0x00 && bytes.isEmpty)
        {
            self = .unknown(type: type, data: bytes)
            return
        }
        switch type {
        case 0x00: self = .sequenceNumber(bytes.isEmpty ? nil : UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        case 0x01...0x09: self = .text(TextKind(rawValue: type)!, bytes)
        case 0x20: self = .channelPrefix(bytes[0])
        case 0x21: self = .port(bytes[0])
        case 0x2F: self = .endOfTrack
        case 0x51: self = .tempo(microsecondsPerQuarterNote: UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2]))
        case 0x54: self = .smpteOffset(hours: bytes[0], minutes: bytes[1], seconds: bytes[2], frames: bytes[3], hundredthsOfFrame: bytes[4])
        case 0x58:
            self = .timeSignature(
                numerator: bytes[0], denominatorPower: bytes[1], clocksPerMetronomeClick: bytes[2], thirtySecondNotesPerQuarter: bytes[3])
        case 0x59: self = .keySignature(sharpsOrFlats: Int8(bitPattern: bytes[0]), isMinor: bytes[1] != 0)
        case 0x7F: self = .sequencerSpecific(bytes)
        default: self = .unknown(type: type, data: bytes)
        }
    }

    /// The type byte and data that encode this event.
    public var encoded: (type: UInt8, data: [UInt8]) {
        switch self {
        case .sequenceNumber(let number):
            (0x00, number.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? [])
        case .text(let kind, let bytes): (kind.rawValue, bytes)
        case .channelPrefix(let channel): (0x20, [channel])
        case .port(let port): (0x21, [port])
        case .endOfTrack: (0x2F, [])
        case .tempo(let tempo): (0x51, [UInt8(tempo >> 16 & 0xFF), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)])
        case .smpteOffset(let h, let m, let s, let f, let ff): (0x54, [h, m, s, f, ff])
        case .timeSignature(let n, let d, let c, let b): (0x58, [n, d, c, b])
        case .keySignature(let sf, let minor): (0x59, [UInt8(bitPattern: sf), minor ? 1 : 0])
        case .sequencerSpecific(let bytes): (0x7F, bytes)
        case .unknown(let type, let bytes): (type, bytes)
        }
    }
}
