/// The universal system exclusive messages of General MIDI and GM2 (any device id).
enum UniversalSystemExclusive {
    static func decode<Bytes>(_ bytes: SystemExclusiveBytes<Bytes>, _ visit: (SoundModuleCommand) -> Void) {
        switch (bytes[0], bytes[2], bytes[3]) {
        // Non-real-time, General MIDI: 09 01 GM1 System On, 09 02 GM System Off, 09 03 GM2 System On.
        case (0x7E, 0x09, 0x01) where bytes.count == 4: visit(.reset(.gm))
        case (0x7E, 0x09, 0x02) where bytes.count == 4: visit(.generalMIDIOff)
        case (0x7E, 0x09, 0x03) where bytes.count == 4: visit(.reset(.gm2))
        // Real-time, device control: 04 0n lsb msb.
        case (0x7F, 0x04, let control) where bytes.count == 6:
            let value = Int(bytes[5] & 0x7F) << 7 | Int(bytes[4] & 0x7F)
            switch control {
            case 0x01: visit(.masterVolume(Float(value) / 16_383))
            case 0x02: visit(.masterPan(max(-1, Float(value - 8192) / 8191)))
            case 0x03: visit(.masterFineTune(cents: Float(value - 8192) / 8192 * 100))
            // The coarse tuning's LSB is ignored, as the standard says.
            case 0x04: visit(.masterKeyShift(semitones: min(24, max(-24, Int(bytes[5] & 0x7F) - 64))))
            default: break
            }
        default:
            break
        }
    }
}
