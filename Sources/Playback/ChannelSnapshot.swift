/// One of the 16 MIDI channels as the player shows it: the instrument it plays (the SoundFont
/// preset actually selected, or the drum kit), and how hard it was last struck.
public struct ChannelSnapshot: Hashable, Sendable {
    /// 1–16. A song with several MIDI ports shows a channel's first port's instrument, and the
    /// loudest strike of all its ports.
    public var number: Int
    /// `nil` for a channel the song sends nothing on.
    public var instrument: String?
    public var isDrum: Bool
    /// The highest velocity struck since the last snapshot, 0–127.
    public var velocity: UInt8
}
