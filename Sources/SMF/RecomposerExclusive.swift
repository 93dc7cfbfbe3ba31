/// Recomposer's system exclusive templates (the header's user exclusives, a track's channel
/// exclusive, the Roland parameter command): data bytes as they are, and codes above 0x7F that
/// stand for a value when the message is sent.
enum RecomposerExclusive {
    /// The message a template makes, without its F0 and with its F7: 0x80 and 0x81 are the
    /// command's two values, 0x82 the track's channel (0–15, without its port), 0x83 starts a
    /// Roland checksum and 0x84 puts it (what makes the bytes since 0x83 a multiple of 128); F7
    /// ends the template, and another byte above 0x7F is no data, left out (as Valley Bell's
    /// rcp2mid does). Nil when no data byte is left.
    static func message(_ template: some Sequence<UInt8>, values: (UInt8, UInt8), channel: UInt8) -> [UInt8]? {
        var message: [UInt8] = []
        var sum = 0
        for byte in template {
            let value: UInt8
            switch byte {
            case 0x80: value = values.0 & 0x7F
            case 0x81: value = values.1 & 0x7F
            case 0x82: value = channel & 0x0F
            case 0x83:
                sum = 0
                continue
            case 0x84: value = UInt8((128 - sum % 128) % 128)
            case 0xF7: return message.isEmpty ? nil : message + [0xF7]
            case 0x85...: continue
            default: value = byte
            }
            message.append(value)
            sum += Int(value)
        }
        return message.isEmpty ? nil : message + [0xF7]
    }
}
