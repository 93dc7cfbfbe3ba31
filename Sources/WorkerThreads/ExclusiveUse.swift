import Synchronization

/// A check, in debug builds, that an object handed from thread to thread is used by one thread
/// at a time: its owner marks its use around the calls that change it, and a second thread
/// coming in meanwhile traps (as swift-nio's `preconditionInEventLoop` does for a loop's thread).
/// Release builds check nothing.
public final class ExclusiveUse: Sendable {
    private let inUse = Atomic(false)

    public init() {}

    /// Runs `body` as the object's one user; traps in debug builds when another thread is one.
    @inline(__always)
    public func run<Result>(_ what: @autoclosure () -> String, _ body: () throws -> Result) rethrows -> Result {
        assert(!inUse.exchange(true, ordering: .acquiring), "\(what()) used by two threads at once")
        defer { assert(inUse.exchange(false, ordering: .releasing)) }
        return try body()
    }
}
