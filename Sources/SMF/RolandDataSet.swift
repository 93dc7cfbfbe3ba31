/// A Roland GS data set (DT1): `41 dev 42 12 a1 a2 a3 data… sum`, from any device id 10–1F or 7F.
///
/// The checksum makes the low 7 bits of the address, data and checksum bytes add up to 0; a message
/// whose sum is wrong was damaged on its way, and a Sound Canvas ignores it.
enum RolandDataSet {
    static func decode<Bytes>(_ bytes: SystemExclusiveBytes<Bytes>, _ visit: (SoundModuleCommand) -> Void) {
        let device = bytes[1]
        guard bytes.count >= 9, (0x10...0x1F).contains(device) || device == 0x7F, bytes[2] == 0x42, bytes[3] == 0x12 else { return }
        var sum = 0
        for offset in 4..<bytes.count { sum += Int(bytes[offset]) }
        guard sum & 0x7F == 0 else {
            visit(.badChecksum)
            return
        }
        let address = Self.address(bytes[4], bytes[5], bytes[6])
        let dataCount = bytes.count - 8
        // Master tune takes four bytes at once (one nibble each).
        if address == Self.address(0x40, 0x00, 0x00), dataCount >= 4 {
            let value = (0..<4).reduce(0) { $0 << 4 | Int(bytes[7 + $1] & 0x0F) }
            visit(.masterFineTune(cents: min(100, max(-100, Float(value - 0x400) / 10))))
        }
        for index in 0..<dataCount {
            parameter(at: address + index, value: bytes[7 + index] & 0x7F, visit)
        }
    }

    /// An address as one number, so that a data set's bytes go to consecutive addresses: each byte
    /// holds 7 bits, `40 00 7F` + 1 is `40 01 00`.
    static func address(_ high: UInt8, _ middle: UInt8, _ low: UInt8) -> Int {
        Int(high & 0x7F) << 14 | Int(middle & 0x7F) << 7 | Int(low & 0x7F)
    }

    private static let reset = address(0x40, 0x00, 0x7F)
    private static let modeSet = address(0x00, 0x00, 0x7F)
    private static let masterVolume = address(0x40, 0x00, 0x04)
    private static let masterKeyShift = address(0x40, 0x00, 0x05)
    private static let masterPan = address(0x40, 0x00, 0x06)
    private static let reverbMacro = address(0x40, 0x01, 0x30)
    private static let chorusMacro = address(0x40, 0x01, 0x38)

    private static func parameter(at address: Int, value: UInt8, _ visit: (SoundModuleCommand) -> Void) {
        switch address {
        case reset: visit(.reset(value == 0x7F ? .gm : .gs))
        // SC-88 system mode set (single or double module): a reset into GS.
        case modeSet: visit(.reset(.gs))
        case masterVolume: visit(.masterVolume(Float(value) / 127))
        case masterKeyShift: visit(.masterKeyShift(semitones: min(24, max(-24, Int(value) - 64))))
        // Pan 0 is "random", which no song relies on: the centre.
        case masterPan: visit(.masterPan(value == 0 ? 0 : Float(Int(value) - 64) / 63))
        case reverbMacro: visit(.reverbMacro(Int(value & 0x07)))
        case chorusMacro: visit(.chorusMacro(Int(value & 0x07)))
        default: partParameter(at: address, value: value, visit)
        }
    }

    /// Part parameters, `40 1p xx` for the first port's parts and `50 1p xx` for the second's.
    private static func partParameter(at address: Int, value: UInt8, _ visit: (SoundModuleCommand) -> Void) {
        let high = address >> 14
        let middle = address >> 7 & 0x7F
        guard high == 0x40 || high == 0x50, middle & 0xF0 == 0x10 else { return }
        let port = high == 0x50 ? 1 : 0
        let part = port * 16 + channel(ofPart: middle & 0x0F)
        switch address & 0x7F {
        case 0x02: visit(.partReceiveChannel(part: part, channel: value < 16 ? port * 16 + Int(value) : nil))
        case 0x15: visit(.partDrumMode(part: part, isDrum: value != 0))
        case 0x16: visit(.partKeyShift(part: part, semitones: min(24, max(-24, Int(value) - 64))))
        case 0x19: visit(.partController(part: part, controller: 7, value: value))
        case 0x1C: visit(.partController(part: part, controller: 10, value: value == 0 ? 64 : value))
        case 0x21: visit(.partController(part: part, controller: 93, value: value))
        case 0x22: visit(.partController(part: part, controller: 91, value: value))
        default: break
        }
    }

    /// GS numbers its parts with the rhythm part first: block 0 is channel 10, blocks 1–9 are
    /// channels 1–9, blocks A–F channels 11–16 (0-based here).
    static func channel(ofPart block: Int) -> Int {
        switch block {
        case 0: 9
        case 1...9: block - 1
        default: block
        }
    }
}
