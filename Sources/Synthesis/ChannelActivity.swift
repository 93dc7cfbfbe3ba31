import Synchronization

/// What each channel plays, as an interface shows it: the preset selected on it, whether it plays
/// drums, and how hard its last notes were struck. Written by the thread that renders (through
/// ``Synthesizer``) without a lock or an allocation, read by an interface at any time.
public final class ChannelActivity: Sendable {
    /// Per part (0–63): the preset as `soundFont << 24 | bank << 8 | program`, bit 63 for a drum
    /// part, or -1 before any.
    private let presets: InlineArray<64, Atomic<Int64>> = InlineArray { _ in Atomic(-1) }
    /// Per part: the highest velocity struck since the last read.
    private let velocities: InlineArray<64, Atomic<UInt8>> = InlineArray { _ in Atomic(0) }

    public init() {}

    /// What a part plays now.
    public struct Preset: Hashable, Sendable {
        public var soundFont: Int32
        public var bank: Int
        public var program: Int
        public var isDrum: Bool
    }

    func select(part: Int, _ preset: Preset) {
        let packed = Int64(preset.soundFont) << 24 | Int64(preset.bank) << 8 | Int64(preset.program) | (preset.isDrum ? Int64(1) << 62 : 0)
        presets[part].store(packed, ordering: .relaxed)
    }

    @inline(__always)
    func strike(part: Int, velocity: UInt8) {
        var current = velocities[part].load(ordering: .relaxed)
        while velocity > current {
            let (exchanged, original) = velocities[part].compareExchange(expected: current, desired: velocity, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    /// The preset a part plays, if one has been selected.
    public func preset(part: Int) -> Preset? {
        let packed = presets[part].load(ordering: .relaxed)
        guard packed >= 0 else { return nil }
        return Preset(
            soundFont: Int32(packed >> 24 & 0xFFFF), bank: Int(packed >> 8 & 0xFFFF), program: Int(packed & 0xFF),
            isDrum: packed & 1 << 62 != 0)
    }

    /// For each part, the highest velocity struck since the last read (0 for none). Meant for one
    /// reader: each read starts the next one's "since".
    public func readVelocities() -> [UInt8] {
        (0..<64).map { velocities[$0].exchange(0, ordering: .relaxed) }
    }
}
