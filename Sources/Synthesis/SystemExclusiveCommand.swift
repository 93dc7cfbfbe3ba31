/// What a system exclusive message asks of the synthesizer beyond what FluidSynth does with it:
/// the resets and master volumes of General MIDI, Roland GS and Yamaha XG. FluidSynth 2.3 acts
/// on the GM ones only, so a GS or XG song that resets its sound module at the start kept
/// whatever the song before had set.
public enum SystemExclusiveCommand: Equatable, Sendable {
    /// Every channel back to its power-on state: programs, controllers, notes off.
    case reset(Standard)
    /// The volume of everything, 0–1.
    case masterVolume(Float)

    public enum Standard: Equatable, Sendable {
        case generalMIDI, rolandGS, yamahaXG
    }

    /// The command in a message (without its `F0` and `F7`), if it is one of these.
    public init?(_ message: some Collection<UInt8>) {
        let bytes = Array(message.prefix(12))
        switch bytes.count {
        // Universal non-real-time: GM System On (09 01), GM2 System On (09 03).
        case 4 where bytes[0] == 0x7E && bytes[2] == 0x09 && (bytes[3] == 0x01 || bytes[3] == 0x03):
            self = .reset(.generalMIDI)
        // Universal real-time, device control, master volume: 7F dd 04 01 lsb msb.
        case 6 where bytes[0] == 0x7F && bytes[2] == 0x04 && bytes[3] == 0x01:
            self = .masterVolume(Float(UInt16(bytes[5] & 0x7F) << 7 | UInt16(bytes[4] & 0x7F)) / 16_383)
        // Roland GS data set (41 dd 42 12), address 40 00 7F: GS reset; 40 00 04: master volume.
        // Address 00 00 7F is the SC-88's system mode set, which resets too.
        case 9 where bytes[0] == 0x41 && bytes[2] == 0x42 && bytes[3] == 0x12:
            switch (bytes[4], bytes[5], bytes[6]) {
            case (0x40, 0x00, 0x7F), (0x00, 0x00, 0x7F): self = .reset(.rolandGS)
            case (0x40, 0x00, 0x04): self = .masterVolume(Float(bytes[7] & 0x7F) / 127)
            default: return nil
            }
        // Yamaha XG parameter change (43 1n 4C), address 00 00 7E: XG System On; 00 00 7F: all
        // parameters reset; 00 00 04: master volume.
        case 7 where bytes[0] == 0x43 && bytes[1] & 0xF0 == 0x10 && bytes[2] == 0x4C && bytes[3] == 0x00 && bytes[4] == 0x00:
            switch bytes[5] {
            case 0x7E, 0x7F: self = .reset(.yamahaXG)
            case 0x04: self = .masterVolume(Float(bytes[6] & 0x7F) / 127)
            default: return nil
            }
        default:
            return nil
        }
    }
}
