/// One Universal MIDI Packet (UMP), the unit of MIDI 2.0 (M2-104-UM): one to four 32-bit words,
/// big-endian in a file, the first word's top four bits its message type, which says how many
/// words it has.
struct UniversalMIDIPacket: Sendable {
    /// The words, those past the packet's size 0.
    var words: (UInt32, UInt32, UInt32, UInt32)

    /// The words of a packet of `messageType`: utility, system and MIDI 1.0 channel voice
    /// messages one; SysEx7 and MIDI 2.0 channel voice two; SysEx8, Flex Data and stream
    /// messages four; the reserved types as the specification sizes them.
    static func wordCount(ofType messageType: UInt8) -> Int {
        switch messageType {
        case 0x0, 0x1, 0x2, 0x6, 0x7: 1
        case 0x3, 0x4, 0x8, 0x9, 0xA: 2
        case 0xB, 0xC: 3
        default: 4
        }
    }

    var messageType: UInt8 { UInt8(words.0 >> 28) }
    /// The group (0–15): sixteen channels each, as a MIDI 1.0 port has.
    var group: UInt8 { UInt8(words.0 >> 24 & 0xF) }
    /// The four bits after the group: a channel voice message's opcode, a utility message's or a
    /// SysEx7 packet's status.
    var status: UInt8 { UInt8(words.0 >> 20 & 0xF) }
    var channel: UInt8 { UInt8(words.0 >> 16 & 0xF) }
    /// The first word's third and fourth bytes.
    var byte3: UInt8 { UInt8(words.0 >> 8 & 0xFF) }
    var byte4: UInt8 { UInt8(words.0 & 0xFF) }
    /// A stream message's 10-bit status.
    var streamStatus: UInt16 { UInt16(words.0 >> 16 & 0x3FF) }

    /// The byte at `index` counting from the packet's first (0–15), as the words hold them.
    func byte(_ index: Int) -> UInt8 {
        let word =
            switch index / 4 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return UInt8(word >> UInt32(24 - 8 * (index % 4)) & 0xFF)
    }
}
