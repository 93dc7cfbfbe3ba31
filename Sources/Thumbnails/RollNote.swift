/// A note as a piano roll shows it: a key held on a channel from one tick of
/// the song's time line to another.
public struct RollNote: Hashable, Sendable {
    /// 0–15.
    public var channel: UInt8
    /// The key, 0–127 (60 is middle C).
    public var pitch: UInt8
    /// The note-on velocity, 1–127.
    public var velocity: UInt8
    public var startTick: UInt64
    public var endTick: UInt64

    public init(channel: UInt8, pitch: UInt8, velocity: UInt8, startTick: UInt64, endTick: UInt64) {
        self.channel = channel
        self.pitch = pitch
        self.velocity = velocity
        self.startTick = startTick
        self.endTick = endTick
    }
}
