/// What a track's channel messages use, counted as the track is made (by the parser's one pass
/// over the file, or by ``Track/append(_:atTick:)``): the channels, the notes started on each, when
/// the first note starts, and where the bank and program selections are.
///
/// A song's summary and its standard's detection need these of every song the library's index
/// reads; a pass of their own over every event, after the parser's, took a tenth of a first index.
struct TrackChannelUse: Hashable, Sendable {
    /// Bit n: channel n (0–15) has a channel message.
    private(set) var channels: UInt16 = 0
    /// The notes started on each channel (0–15).
    private(set) var noteCounts = SIMD16<UInt32>()
    /// The tick of the first note; nil for a track without notes.
    private(set) var firstNoteTick: UInt32?
    /// The places in the track's events of its bank selects (controllers 0 and 32) and program
    /// changes, in file order (see ``ChannelState/isSetting(_:)``).
    private(set) var settingIndices: [Int] = []

    /// Counts the channel message `event`, the track's event number `index`.
    @inline(__always)
    mutating func count(_ event: TrackEvent, at index: Int) {
        let channel = Int(event.channel)
        channels |= 1 << UInt16(channel)
        // Counted without a branch: note-ons and note-offs alternate, which a branch on each
        // would guess wrong half the time.
        let startsNote = event.startsNote
        noteCounts[channel] &+= startsNote ? 1 : 0
        if startsNote, firstNoteTick == nil { firstNoteTick = event.tick }
        if ChannelState.isSetting(event) { settingIndices.append(index) }
    }
}
