import SMF

/// The system exclusive messages the compatibility songs send, as a file holds them (ending in `F7`).
enum SystemExclusive {
    /// A Roland GS data set to device 10H, with its checksum (or a wrong one).
    static func gs(_ address: [UInt8], _ data: [UInt8], device: UInt8 = 0x10, wrongChecksum: Bool = false) -> MIDIMessage {
        let sum = (address + data).reduce(0) { $0 + Int($1) }
        let checksum = UInt8((128 - sum % 128) % 128) ^ (wrongChecksum ? 1 : 0)
        return .systemExclusive([0x41, device, 0x42, 0x12] + address + data + [checksum, 0xF7])
    }

    static let gsReset = gs([0x40, 0x00, 0x7F], [0x00])

    /// "Use for rhythm part" of the part that plays `channel` (0-based), in the GS part order.
    static func gsRhythmPart(channel: UInt8, isDrum: Bool, wrongChecksum: Bool = false) -> MIDIMessage {
        gs([0x40, 0x10 | gsBlock(channel), 0x15], [isDrum ? 1 : 0], wrongChecksum: wrongChecksum)
    }

    /// GS numbers its parts with the rhythm part first: block 0 is channel 10.
    static func gsBlock(_ channel: UInt8) -> UInt8 {
        switch channel {
        case 9: 0
        case 0...8: channel + 1
        default: channel
        }
    }

    static func xg(_ address: [UInt8], _ data: [UInt8]) -> MIDIMessage {
        .systemExclusive([0x43, 0x10, 0x4C] + address + data + [0xF7])
    }

    static let xgOn = xg([0x00, 0x00, 0x7E], [0x00])
    static let gm2On = MIDIMessage.systemExclusive([0x7E, 0x7F, 0x09, 0x03, 0xF7])

    /// GM2 master coarse tuning, in semitones.
    static func masterCoarseTuning(_ semitones: Int) -> MIDIMessage {
        .systemExclusive([0x7F, 0x7F, 0x04, 0x04, 0x00, UInt8(64 + semitones), 0xF7])
    }
}
