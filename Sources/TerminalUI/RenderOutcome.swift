import Synchronization

/// Counts what a batch render did, from its worker threads.
public final class RenderOutcome: Sendable {
    private struct Counts {
        var rendered = 0
        var failures = 0
        var songSeconds = 0.0
    }

    private let counts = Mutex(Counts())

    public init() {}

    public var failures: Int { counts.withLock { $0.failures } }

    public func record(success songSeconds: Double) {
        counts.withLock {
            $0.rendered += 1
            $0.songSeconds += songSeconds
        }
    }

    public func record(failure: Void) {
        counts.withLock { $0.failures += 1 }
    }

    /// One line: what was rendered, skipped and failed, and how fast.
    public func summary(skipped: Int, problems: Int, otherShards: Int, seconds: Double) -> String {
        counts.withLock { counts in
            var parts = ["rendered \(counts.rendered) file\(counts.rendered == 1 ? "" : "s")"]
            if skipped > 0 { parts.append("\(skipped) up to date") }
            if counts.failures + problems > 0 { parts.append("\(counts.failures + problems) failed") }
            if otherShards > 0 { parts.append("\(otherShards) in other shards") }
            var line = parts.joined(separator: ", ") + " in " + formatDuration(seconds)
            if counts.songSeconds > 0, seconds > 0 {
                line += " (\(RealTimeSpeed.text(audioSeconds: counts.songSeconds, elapsedSeconds: seconds)))"
            }
            return line
        }
    }
}
