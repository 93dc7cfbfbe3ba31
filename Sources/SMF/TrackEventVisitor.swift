/// What ``TrackParser`` hands each event to as it finds it: storage for a
/// ``Track``, or a pass that looks at each event once and keeps none.
protocol TrackEventVisitor {
    /// A channel message (status 0x80–0xEF); its data bytes are raw, as in the
    /// file (above 127 in a damaged one), and `data2` is 0 for one-byte messages.
    mutating func visitChannelMessage(tick: UInt32, status: UInt8, data1: UInt8, data2: UInt8)

    /// A system exclusive (0xF0, 0xF7) or meta event (0xFF, with its type; 0
    /// otherwise), with its bytes after the length. `offset` is where the event
    /// starts in the file, for an error that refuses it.
    mutating func visitPayloadEvent(
        tick: UInt32, status: UInt8, metaType: UInt8,
        payload: UnsafeBufferPointer<UInt8>, offset: Int) throws(SMFError)
}
