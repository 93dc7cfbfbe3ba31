/// Knuth's MMIX linear congruential generator: deterministic, so that a failing random run can be
/// run again, and good enough to vary test input (`random(in:using:)` reads the high bits).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
