/// Writes MIDI 2.0 Clip Files (M2-116-U) for tests, packet by packet: `SMF2CLIP`, a header of a
/// Delta Clockstamp and the Delta Clockstamp Ticks Per Quarter Note, then the packets given, each
/// a Universal MIDI Packet of one to four 32-bit words, written big-endian.
public struct MIDIClipWriter {
    public private(set) var words: [UInt32] = []

    /// A clip at `ticksPerQuarterNote`, its header written (nil: none, for a clip without one).
    public init(ticksPerQuarterNote: UInt16?) {
        if let ticksPerQuarterNote { words = Self.deltaClockstamp(0) + [0x0030_0000 | UInt32(ticksPerQuarterNote)] }
    }

    /// The file's bytes.
    public var bytes: [UInt8] {
        Array("SMF2CLIP".utf8) + words.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
    }

    /// Appends packets as they are.
    public mutating func append(_ packets: [UInt32]...) {
        for packet in packets { words += packet }
    }

    /// Appends `packet` `ticks` after the one before, as a clip's sequence has it.
    public mutating func append(after ticks: UInt32, _ packet: [UInt32]) {
        words += Self.deltaClockstamp(ticks) + packet
    }

    public static func deltaClockstamp(_ ticks: UInt32) -> [UInt32] { [0x0040_0000 | ticks & 0xF_FFFF] }
    public static let startOfClip: [UInt32] = [0xF020_0000, 0, 0, 0]
    public static let endOfClip: [UInt32] = [0xF021_0000, 0, 0, 0]

    /// A MIDI 1.0 channel voice message in a packet (type 2).
    public static func midi1(group: UInt8 = 0, _ status: UInt8, _ data1: UInt8, _ data2: UInt8 = 0) -> [UInt32] {
        [0x2000_0000 | UInt32(group) << 24 | UInt32(status) << 16 | UInt32(data1) << 8 | UInt32(data2)]
    }

    /// A MIDI 2.0 channel voice message (type 4): opcode, channel, the first word's last two bytes
    /// (note or index, and attribute, flags or the controller's second index), and the data word.
    public static func midi2(group: UInt8 = 0, opcode: UInt8, channel: UInt8, _ byte3: UInt8, _ byte4: UInt8 = 0, data: UInt32) -> [UInt32] {
        [0x4000_0000 | UInt32(group) << 24 | UInt32(opcode) << 20 | UInt32(channel) << 16 | UInt32(byte3) << 8 | UInt32(byte4), data]
    }

    /// A Flex Data message (type D) of one packet, for the group, with three data words.
    public static func flex(bank: UInt8, status: UInt8, format: UInt8 = 0, _ data: (UInt32, UInt32, UInt32)) -> [UInt32] {
        [0xD010_0000 | UInt32(format) << 22 | UInt32(bank) << 8 | UInt32(status), data.0, data.1, data.2]
    }

    /// Set Tempo: ten nanoseconds a quarter note.
    public static func tempo(beatsPerMinute: Double) -> [UInt32] {
        flex(bank: 0, status: 0, (UInt32((6_000_000_000 / beatsPerMinute).rounded()), 0, 0))
    }

    /// A text in as many Flex Data packets as it takes, 12 bytes each (start, continue, end).
    public static func text(bank: UInt8, status: UInt8, _ text: String) -> [[UInt32]] {
        let bytes = Array(text.utf8)
        let chunks = stride(from: 0, to: max(bytes.count, 1), by: 12).map { Array(bytes[$0..<min($0 + 12, bytes.count)]) }
        return chunks.enumerated().map { index, chunk in
            let format: UInt8 = chunks.count == 1 ? 0 : index == 0 ? 1 : index == chunks.count - 1 ? 3 : 2
            let padded = chunk + [UInt8](repeating: 0, count: 12 - chunk.count)
            let word = { (start: Int) in padded[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            return flex(bank: bank, status: status, format: format, (word(0), word(4), word(8)))
        }
    }

    /// A system exclusive message's data (without F0 and F7) in as many SysEx7 packets as it takes.
    public static func systemExclusive(group: UInt8 = 0, _ data: [UInt8]) -> [[UInt32]] {
        let chunks = stride(from: 0, to: max(data.count, 1), by: 6).map { Array(data[$0..<min($0 + 6, data.count)]) }
        return chunks.enumerated().map { index, chunk in
            let status: UInt32 = chunks.count == 1 ? 0 : index == 0 ? 1 : index == chunks.count - 1 ? 3 : 2
            let padded = chunk + [UInt8](repeating: 0, count: 6 - chunk.count)
            return [
                0x3000_0000 | UInt32(group) << 24 | status << 20 | UInt32(chunk.count) << 16 | UInt32(padded[0]) << 8 | UInt32(padded[1]),
                padded[2...5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) },
            ]
        }
    }
}
