/// A Yamaha XG parameter change: `43 1n 4C ah am al data…`, no checksum.
enum YamahaParameterChange {
    static func decode<Bytes>(_ bytes: SystemExclusiveBytes<Bytes>, _ visit: (SoundModuleCommand) -> Void) {
        guard bytes.count >= 7, bytes[1] & 0xF0 == 0x10, bytes[2] == 0x4C else { return }
        let high = bytes[3] & 0x7F
        let middle = Int(bytes[4] & 0x7F)
        let low = Int(bytes[5] & 0x7F)
        let dataCount = bytes.count - 6
        switch high {
        case 0x00 where middle == 0:
            // Master tune takes four bytes at once (one nibble each).
            if low == 0, dataCount >= 4 {
                let value = (0..<4).reduce(0) { $0 << 4 | Int(bytes[6 + $1] & 0x0F) }
                visit(.masterFineTune(cents: min(100, max(-100, Float(value - 0x400) / 10))))
            }
            for index in 0..<dataCount { system(at: low + index, value: bytes[6 + index] & 0x7F, visit) }
        case 0x08 where middle < 64:
            for index in 0..<dataCount { part(middle, at: low + index, value: bytes[6 + index] & 0x7F, visit) }
        default:
            break
        }
    }

    private static func system(at address: Int, value: UInt8, _ visit: (SoundModuleCommand) -> Void) {
        switch address {
        case 0x04: visit(.masterVolume(Float(value) / 127))
        case 0x06: visit(.masterKeyShift(semitones: min(24, max(-24, Int(value) - 64))))
        // XG System On and XG All Parameter Reset.
        case 0x7E, 0x7F: visit(.reset(.xg))
        default: break
        }
    }

    /// Multi part parameters; parts are channels 0–63 (the second port's parts follow the first's).
    private static func part(_ part: Int, at address: Int, value: UInt8, _ visit: (SoundModuleCommand) -> Void) {
        switch address {
        case 0x04: visit(.partReceiveChannel(part: part, channel: value < 64 ? Int(value) : nil))
        case 0x07: visit(.partDrumMode(part: part, isDrum: value != 0))
        case 0x08: visit(.partKeyShift(part: part, semitones: min(24, max(-24, Int(value) - 64))))
        case 0x0B: visit(.partController(part: part, controller: 7, value: value))
        case 0x0E: visit(.partController(part: part, controller: 10, value: value == 0 ? 64 : value))
        case 0x12: visit(.partController(part: part, controller: 93, value: value))
        case 0x13: visit(.partController(part: part, controller: 91, value: value))
        default: break
        }
    }
}
