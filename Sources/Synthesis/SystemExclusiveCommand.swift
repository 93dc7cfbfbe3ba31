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

    /// The command in a message (without its `F0` and `F7`), if it is one of these. Reads the
    /// bytes where they are: it runs on the audio thread, for every system exclusive message.
    public init?<Bytes: RandomAccessCollection>(_ message: Bytes) where Bytes.Element == UInt8 {
        func byte(_ offset: Int) -> UInt8 { message[message.index(message.startIndex, offsetBy: offset)] }
        switch message.count {
        // Universal non-real-time: GM System On (09 01), GM2 System On (09 03).
        case 4 where byte(0) == 0x7E && byte(2) == 0x09 && (byte(3) == 0x01 || byte(3) == 0x03):
            self = .reset(.generalMIDI)
        // Universal real-time, device control, master volume: 7F dd 04 01 lsb msb.
        case 6 where byte(0) == 0x7F && byte(2) == 0x04 && byte(3) == 0x01:
            self = .masterVolume(Float(UInt16(byte(5) & 0x7F) << 7 | UInt16(byte(4) & 0x7F)) / 16_383)
        // Roland GS data set (41 dd 42 12), address 40 00 7F: GS reset; 40 00 04: master volume.
        // Address 00 00 7F is the SC-88's system mode set, which resets too.
        case 9 where byte(0) == 0x41 && byte(2) == 0x42 && byte(3) == 0x12:
            switch (byte(4), byte(5), byte(6)) {
            case (0x40, 0x00, 0x7F), (0x00, 0x00, 0x7F): self = .reset(.rolandGS)
            case (0x40, 0x00, 0x04): self = .masterVolume(Float(byte(7) & 0x7F) / 127)
            default: return nil
            }
        // Yamaha XG parameter change (43 1n 4C), address 00 00 7E: XG System On; 00 00 7F: all
        // parameters reset; 00 00 04: master volume.
        case 7 where byte(0) == 0x43 && byte(1) & 0xF0 == 0x10 && byte(2) == 0x4C && byte(3) == 0x00 && byte(4) == 0x00:
            switch byte(5) {
            case 0x7E, 0x7F: self = .reset(.yamahaXG)
            case 0x04: self = .masterVolume(Float(byte(6) & 0x7F) / 127)
            default: return nil
            }
        default:
            return nil
        }
    }
}
