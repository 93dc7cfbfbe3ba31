/// A small, seeded xorshift64* generator: the same seed gives the same file on
/// every machine and Swift version, which `SystemRandomNumberGenerator` does not.
struct XorShiftRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        // A zero state would stay zero forever.
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A value in `0..<bound`, without the stdlib's rejection sampling so the
    /// sequence depends on nothing but this file (the tiny modulo bias is harmless here).
    mutating func below(_ bound: Int) -> Int {
        Int(next() >> 11) % bound
    }

    /// A value in `range`.
    mutating func value(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }
}
