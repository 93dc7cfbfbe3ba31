/// Splits a collection's files into shards, one per task of a cluster job, so that every file is
/// in exactly one shard and the shards take about as long to render.
///
/// Every task works the split out alone, from the same list, so it depends on nothing but the
/// files' keys (their paths relative to the input's root, as bytes) and weights (their sizes, a
/// proxy for render time): not on the order they were listed in, nor on the machine. It is
/// rendezvous hashing with bounded loads:
///
/// - Each file ranks the shards by a hash of its key and the shard's number (rendezvous, or
///   highest-random-weight, hashing). Alone, that is stable (a new file takes its own first
///   choice and moves nobody) but balanced only on average.
/// - Files are placed one by one, in the order of their keys' hashes (an order that adding files
///   interleaves with, not shifts), each in the highest-ranked shard that still has room under a
///   capacity of `(1 + slack) × mean`, where `mean` is the total weight over the shard count; when
///   none has room, in the lightest shard. When a file is placed, the shards hold less than the
///   total, so the lightest holds less than `mean`: a shard ends at most at
///   `max((1 + slack) × mean, mean + largest file)`, the bound the tests check. Large files are
///   rare in MIDI collections, so in practice shards end within the capacity.
///
/// Adding files raises the capacity with the mean, so most files keep their first choice; those
/// that move are the ones displaced near a full shard (bench/shards.sh measures how many).
/// The hash is FNV-1a then SplitMix64's finalizer, fixed here: Swift's `Hasher` is seeded anew
/// in every process.
public struct BalancedSplit: Sendable {
    /// How far above the mean a shard may be loaded, when no file is larger than that.
    public static let slack = 0.05

    /// The shard of each file, in the order they were given.
    public let shards: [Int]
    /// The weight each shard holds.
    public let loads: [Int]
    /// The weight over which a shard takes no more files while another has room.
    public let capacity: Int
    /// The most weight a shard may end with (see above).
    public let bound: Int

    /// `keys[i]` and `weights[i]` (≥ 0) describe file `i`; `shardCount` ≥ 1.
    public init(keys: [[UInt8]], weights: [Int], shardCount: Int) {
        precondition(keys.count == weights.count && shardCount >= 1)
        let hashes = keys.map(Self.hash)
        let total = weights.reduce(0, +)
        let mean = Double(total) / Double(shardCount)
        let largest = weights.max() ?? 0
        capacity = Int(((1 + Self.slack) * mean).rounded(.up))
        bound = Int(max((1 + Self.slack) * mean, mean + Double(largest)).rounded(.up))
        // Equal hashes (as good as never) are ordered by their keys, so the order stays total.
        let order = keys.indices.sorted { hashes[$0] != hashes[$1] ? hashes[$0] < hashes[$1] : keys[$0].lexicographicallyPrecedes(keys[$1]) }
        var shards = [Int](repeating: 0, count: keys.count)
        var loads = [Int](repeating: 0, count: shardCount)
        for file in order {
            let weight = weights[file]
            var best = -1
            var bestScore: UInt64 = 0
            for shard in 0..<shardCount where loads[shard] + weight <= capacity {
                let score = Self.score(hashes[file], shard)
                if best < 0 || score > bestScore {
                    best = shard
                    bestScore = score
                }
            }
            if best < 0 { best = loads.indices.min { loads[$0] < loads[$1] }! }
            shards[file] = best
            loads[best] += weight
        }
        self.shards = shards
        self.loads = loads
    }

    /// FNV-1a over the key's bytes, 64 bits.
    static func hash(_ key: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return mix(hash)
    }

    /// How much a file (by its key's hash) wants a shard: SplitMix64's output for the shard's step.
    static func score(_ hash: UInt64, _ shard: Int) -> UInt64 {
        mix(hash &+ UInt64(shard + 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// SplitMix64's finalizer: every input bit changes about half the output bits.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
