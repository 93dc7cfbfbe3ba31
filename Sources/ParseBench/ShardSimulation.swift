import Foundation
import Library

/// bench/shards.sh's simulation: a collection of made-up files split into shards by
/// ``BalancedSplit``, how even the shards are, and how many files change shard when more are added.
struct ShardSimulation {
    var files = 1_000_000
    var shards = 1_000
    /// Files added for the second split, as a percentage of `files`.
    var addedPercent = 1.0
    var seed: UInt64 = 17

    /// Sizes are log-normal, as MIDI collections' are: median 30 KB (e^μ), σ = 1 (mean about
    /// 49 KB, 1 file in 1,000 above 660 KB), at least 100 bytes.
    static func size(_ random: inout XorShiftRandom) -> Int {
        // Box–Muller: two uniform values in (0, 1] make one normal one.
        let u1 = Double(random.next() >> 11 + 1) / Double(1 << 53)
        let u2 = Double(random.next() >> 11) / Double(1 << 53)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return max(100, Int(30_000 * exp(normal)))
    }

    /// A path like Lakh MIDI's: `a/a3f…9.mid`, from 16 random bytes.
    static func key(_ random: inout XorShiftRandom) -> [UInt8] {
        let hex = String(format: "%016llx%016llx", random.next(), random.next())
        return Array("\(hex.prefix(1))/\(hex).mid".utf8)
    }

    /// One line of `key=value` pairs for bench/shards.sh.
    func run() -> String {
        var random = XorShiftRandom(seed: seed)
        var keys: [[UInt8]] = []
        var weights: [Int] = []
        for _ in 0..<files {
            keys.append(Self.key(&random))
            weights.append(Self.size(&random))
        }
        let start = ContinuousClock.now
        let before = BalancedSplit(keys: keys, weights: weights, shardCount: shards)
        let splitSeconds = Self.seconds(ContinuousClock.now - start)
        // The added files go at the end of the list: the split must not care where they are.
        let added = Int((Double(files) * addedPercent / 100).rounded())
        for _ in 0..<added {
            keys.append(Self.key(&random))
            weights.append(Self.size(&random))
        }
        let after = BalancedSplit(keys: keys, weights: weights, shardCount: shards)
        let moved = (0..<files).filter { before.shards[$0] != after.shards[$0] }
        let movedBytes = moved.reduce(0) { $0 + weights[$1] }
        let total = weights[..<files].reduce(0, +)
        return [
            "files=\(files)", "shards=\(shards)", "mean_file_kb=\(Self.format(Double(total) / Double(files) / 1000))",
            "largest_file_kb=\(Self.format(Double(weights.max()!) / 1000))",
            "mean_shard_mb=\(Self.format(Double(total) / Double(shards) / 1e6))",
            "max_over_mean=\(Self.format(Self.ratio(before.loads.max()!, before.loads)))",
            "min_over_mean=\(Self.format(Self.ratio(before.loads.min()!, before.loads)))",
            "capacity_over_mean=\(Self.format(Self.ratio(before.capacity, before.loads)))",
            "after_max_over_mean=\(Self.format(Self.ratio(after.loads.max()!, after.loads)))",
            "added=\(added)", "moved=\(moved.count)",
            "moved_percent=\(Self.format(100 * Double(moved.count) / Double(files)))",
            "moved_bytes_percent=\(Self.format(100 * Double(movedBytes) / Double(total)))",
            "split_s=\(Self.format(splitSeconds))",
        ].joined(separator: " ")
    }

    private static func ratio(_ value: Int, _ loads: [Int]) -> Double {
        Double(value) / (Double(loads.reduce(0, +)) / Double(loads.count))
    }

    private static func format(_ value: Double) -> String { String(format: "%.4f", value) }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
