/// What a sound module keeps for one part beyond what FluidSynth keeps for its channel.
struct PartState {
    /// Whether the part plays drum kits when nothing in the bank select says otherwise: channel 10
    /// of each port at power-on, or as a GS "use for rhythm part" or XG part mode made it.
    var isDrumPart: Bool
    /// Whether the part plays a drum kit now (XG and GM2 bank selects decide at each program change).
    var isDrum: Bool
    var bankMSB: UInt8 = 0
    var bankLSB: UInt8 = 0
    var program: UInt8 = 0
    /// GS part key shift, XG part note shift, in semitones.
    var keyShift = 0
    /// The channel (0–63) whose messages this part plays, or -1 for none.
    var receiveChannel: Int

    init(part: Int) {
        isDrumPart = part % 16 == 9
        isDrum = isDrumPart
        receiveChannel = part
    }
}
