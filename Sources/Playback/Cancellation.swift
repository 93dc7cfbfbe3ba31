import Synchronization

/// A request to stop, set from a signal handler or another thread and checked between blocks.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
