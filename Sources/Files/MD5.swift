#if canImport(Glibc)
    import Glibc
#endif

/// The MD5 digest (RFC 1321). Not for security: freedesktop thumbnail caches name each
/// thumbnail by the MD5 of its file's URI, and a song's measured loudness is kept under the MD5
/// of its file's bytes and of its sound's settings; names and keys are all it is used for.
public enum MD5 {
    /// The digest of `bytes` as 32 lowercase hexadecimal digits.
    public static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        digest(of: Array(bytes)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    public static func digest(of message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitCount = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { padded.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            let words = (0..<16).map { index in
                (0..<4).reduce(UInt32(0)) { word, byte in word | UInt32(padded[blockStart + 4 * index + byte]) << UInt32(8 * byte) }
            }
            var (a, b, c, d) = state
            for round in 0..<64 {
                var mixed: UInt32
                let wordIndex: Int
                switch round {
                case 0..<16: (mixed, wordIndex) = ((b & c) | (~b & d), round)
                case 16..<32: (mixed, wordIndex) = ((d & b) | (~d & c), (5 * round + 1) % 16)
                case 32..<48: (mixed, wordIndex) = (b ^ c ^ d, (3 * round + 5) % 16)
                default: (mixed, wordIndex) = (c ^ (b | ~d), (7 * round) % 16)
                }
                mixed = mixed &+ a &+ constants[round] &+ words[wordIndex]
                a = d
                d = c
                c = b
                b = b &+ (mixed << shifts[round] | mixed >> (32 - shifts[round]))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(8 * $0)) } }
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) × 2^32), as the RFC tabulates them.
    private static let constants: [UInt32] = (0..<64).map { UInt32((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down)) }
}
