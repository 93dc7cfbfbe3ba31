/// What a song's notes ask of a synthesizer, by channel and key, and which keys must be played by
/// one synthesizer: the measure a split of the song across synthesizers balances (``NoteSplit``).
public struct NoteLoads: Hashable, Sendable {
    /// Slots: channel (0–63) × 128 + key.
    public static let slotCount = Synthesizer.channelCount * 128

    /// Voice-seconds (``VoiceProfile/cost(heldFor:)``) by slot.
    public var loads: [Double]
    /// Channels (bit c for channel c) whose keys act on one another, so that one synthesizer must
    /// play them all: portamento glides from the last key (controllers 65 and 84), legato and mono
    /// mode join notes (68, 126).
    public var wholeChannels: UInt64 = 0
    /// For each slot, another it must be played with, or itself: keys whose sounds share an
    /// exclusive class (an open hi-hat cut off by the closed one) form a chain.
    public var partners: [Int]

    public init() {
        loads = [Double](repeating: 0, count: Self.slotCount)
        partners = Array(0..<Self.slotCount)
    }

    /// The slot that stands for every slot that must be played with `slot`.
    public func group(of slot: Int) -> Int {
        if wholeChannels & 1 << UInt64(slot / 128) != 0 { return slot / 128 * 128 }
        var slot = slot
        while partners[slot] != slot { slot = partners[slot] }
        return slot
    }

    /// Joins the groups of two slots.
    public mutating func tie(_ a: Int, _ b: Int) {
        let (first, second) = (group(of: a), group(of: b))
        if first != second { partners[max(first, second)] = min(first, second) }
    }
}
