import Synchronization

/// Which keys are down, and on which channels: written by the thread that renders (through
/// ``Synthesizer``), read by an interface at any time, with neither a lock nor an allocation on
/// the writer's side.
///
/// For each of the 128 keys, a mask of channels: bit c for channel c (0–63, the synthesizer's
/// channels across MIDI ports). A key struck and released between two reads would never be
/// seen down, so a strike also sets the key's bit in a second mask that only a read clears:
/// every note shows for at least one read, however short it is.
public final class PressedKeys: Sendable {
    public static let keyCount = 128

    /// Keys held down now.
    private let held: InlineArray<128, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    /// Keys struck since the last read.
    private let struck: InlineArray<128, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }

    public init() {}

    /// A note on. `key` is 0–127 and `channel` 0–63 (the synthesizer masks and checks them).
    @inline(__always)
    func press(_ key: Int, channel: Int) {
        let bit = UInt64(1) << UInt64(channel)
        held[key].bitwiseOr(bit, ordering: .relaxed)
        struck[key].bitwiseOr(bit, ordering: .relaxed)
    }

    /// A note off (or a note on with velocity 0).
    @inline(__always)
    func release(_ key: Int, channel: Int) {
        held[key].bitwiseAnd(~(UInt64(1) << UInt64(channel)), ordering: .relaxed)
    }

    /// All notes off, all sound off: every key of one channel comes up.
    func releaseChannel(_ channel: Int) {
        let others = ~(UInt64(1) << UInt64(channel))
        for key in 0..<Self.keyCount { held[key].bitwiseAnd(others, ordering: .relaxed) }
    }

    /// Every key up, and nothing struck: after a reset or a seek, what was played before is gone.
    func releaseAll() {
        for key in 0..<Self.keyCount {
            held[key].store(0, ordering: .relaxed)
            struck[key].store(0, ordering: .relaxed)
        }
    }

    /// For each key, 0–127, the channels holding it down now or that struck it since the last
    /// read. Meant for one reader: each read starts the next one's "struck since".
    public func read() -> [UInt64] {
        (0..<Self.keyCount).map { key in
            held[key].load(ordering: .relaxed) | struck[key].exchange(0, ordering: .relaxed)
        }
    }
}
