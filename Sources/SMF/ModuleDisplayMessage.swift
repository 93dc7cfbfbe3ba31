/// What a song writes on its sound module's screen: the Sound Canvas's (Roland, model 45: display
/// letters at `10 00 00`, the 16×16 dot picture at `10 01 00`–`10 01 3F`) or an MU's (Yamaha XG,
/// model 4C: display letters at `06 00 00`, the 16×16 bitmap at `07 00 00`). Japanese GS songs greet
/// the listener there.
public enum ModuleDisplayMessage: Hashable, Sendable {
    /// Letters to show, as sent: seven bits each, as every data byte of a system exclusive message
    /// is (a byte with the eighth bit set would end the message on a MIDI cable).
    case text([UInt8], ModuleDisplay.Module)
    /// Part of the Sound Canvas's dot picture: bytes from `offset` (0–63) of its 64.
    case dots(offset: Int, [UInt8])
    /// An MU's whole bitmap: its 48 bytes (see ``DotPicture/Layout/xg``).
    case bitmap([UInt8])

    /// The message a system exclusive message's bytes (after F0, without F7) are, if one.
    public init?(systemExclusive bytes: some RandomAccessCollection<UInt8>) {
        let bytes = Array(bytes)
        if bytes.count >= 9, bytes[0] == 0x41, bytes[2] == 0x45, bytes[3] == 0x12 {
            // A damaged message (its checksum wrong) is ignored, as the module ignores it.
            guard bytes[4...].reduce(0, { $0 + Int($1) }) & 0x7F == 0 else { return nil }
            let data = Array(bytes[7..<(bytes.count - 1)]).map { $0 & 0x7F }
            switch (bytes[4], bytes[5], bytes[6]) {
            case (0x10, 0x00, 0x00): self = .text(data, .soundCanvas)
            case (0x10, 0x01, let offset) where offset < 64: self = .dots(offset: Int(offset), data)
            default: return nil
            }
        } else if bytes.count >= 6, bytes[0] == 0x43, bytes[1] & 0xF0 == 0x10, bytes[2] == 0x4C {
            // An XG parameter change, for any device number, with no checksum.
            let data = Array(bytes[6...]).map { $0 & 0x7F }
            switch (bytes[3], bytes[4], bytes[5]) {
            case (0x06, 0x00, 0x00): self = .text(data, .xg)
            // The bitmap is one parameter at `07 00 00` (the MU80 data list's address map), of 48 bytes
            // (the VL70-m manual), and an XG parameter change "can set a single parameter" (the MU128
            // data list): no other address starts it, and a message too short to draw it whole is not
            // one (the manuals say nothing of a shorter bitmap). Bytes past the 48th are ignored.
            case (0x07, 0x00, 0x00) where data.count >= DotPicture.Layout.xg.byteCount:
                self = .bitmap(Array(data.prefix(DotPicture.Layout.xg.byteCount)))
            default: return nil
            }
        } else {
            return nil
        }
    }
}
