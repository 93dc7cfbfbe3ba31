import Synchronization

/// When each file of a batch started rendering, from the worker threads, for its report's
/// `renderSeconds`.
public final class RenderTimes: Sendable {
    private let starts = Mutex([Int: ContinuousClock.Instant]())

    public init() {}

    public func started(_ index: Int) {
        let now = ContinuousClock.now
        starts.withLock { $0[index] = now }
    }

    /// Seconds since file `index` started; nil if it never did.
    public func seconds(since index: Int) -> Double? {
        let now = ContinuousClock.now
        guard let start = starts.withLock({ $0.removeValue(forKey: index) }) else { return nil }
        let elapsed = (now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
