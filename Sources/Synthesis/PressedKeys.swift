import Synchronization

/// Which keys are down, and on which channels: written by the thread that renders (through
/// ``Synthesizer``), read by an interface at any time, with neither a lock nor an allocation on
/// the writer's side.
///
/// For each of the 128 keys, a mask of channels: bit c for channel c (0–63, the synthesizer's
/// channels across MIDI ports). A key struck and released between two reads would never be
/// seen down, so a strike also sets the key's bit in a second mask that only a read clears:
/// every note shows for at least one read, however short it is. A key released while its
/// channel's sustain pedal is down still sounds, and shows, until the pedal comes up.
public final class PressedKeys: Sendable {
    public static let keyCount = 128

    /// Keys held down now.
    private let held: InlineArray<128, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    /// Keys struck since the last read.
    private let struck: InlineArray<128, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    /// Keys released while the sustain pedal of their channel was down.
    private let sustained: InlineArray<128, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    /// The channels whose sustain pedal (controller 64) is down.
    private let pedals = Atomic<UInt64>(0)

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
        let bit = UInt64(1) << UInt64(channel)
        let wasHeld = held[key].bitwiseAnd(~bit, ordering: .relaxed).oldValue & bit != 0
        // A note off for a key that was not down leaves nothing sounding for the pedal to hold.
        if wasHeld, pedals.load(ordering: .relaxed) & bit != 0 { sustained[key].bitwiseOr(bit, ordering: .relaxed) }
    }

    /// The sustain pedal goes down or comes up; up, it lets go of the keys it held.
    func setPedal(isDown: Bool, channel: Int) {
        let bit = UInt64(1) << UInt64(channel)
        if isDown {
            pedals.bitwiseOr(bit, ordering: .relaxed)
        } else if pedals.bitwiseAnd(~bit, ordering: .relaxed).oldValue & bit != 0 {
            for key in 0..<Self.keyCount { sustained[key].bitwiseAnd(~bit, ordering: .relaxed) }
        }
    }

    /// Every key of one channel comes up: all notes off (`cutsSustain` false: the pedal still
    /// holds what it held, as a note off would leave it) or all sound off (`cutsSustain` true).
    func releaseChannel(_ channel: Int, cutsSustain: Bool) {
        let bit = UInt64(1) << UInt64(channel)
        let isSustaining = !cutsSustain && pedals.load(ordering: .relaxed) & bit != 0
        for key in 0..<Self.keyCount {
            let wasHeld = held[key].bitwiseAnd(~bit, ordering: .relaxed).oldValue & bit != 0
            if isSustaining, wasHeld {
                sustained[key].bitwiseOr(bit, ordering: .relaxed)
            } else if cutsSustain {
                sustained[key].bitwiseAnd(~bit, ordering: .relaxed)
            }
        }
    }

    /// Every key up, every pedal up, and nothing struck: after a reset or a seek, what was played
    /// before is gone.
    func releaseAll() {
        pedals.store(0, ordering: .relaxed)
        for key in 0..<Self.keyCount {
            held[key].store(0, ordering: .relaxed)
            struck[key].store(0, ordering: .relaxed)
            sustained[key].store(0, ordering: .relaxed)
        }
    }

    /// For each key, 0–127, the channels holding it down now (by hand or by pedal) or that struck
    /// it since the last read. Meant for one reader: each read starts the next one's "struck since".
    public func read() -> [UInt64] {
        (0..<Self.keyCount).map { key in
            held[key].load(ordering: .relaxed) | sustained[key].load(ordering: .relaxed) | struck[key].exchange(0, ordering: .relaxed)
        }
    }
}
