import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Work started on a thread of its own while the caller goes on, and its result, which
/// ``value()`` waits for: how the player connects to the sound server on its own thread while the
/// SoundFont loads and the first song is read on others. Where no thread can be made, the work
/// runs at once, on the caller's thread.
public final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once, by the work's thread before it ends, and read only
    // after that thread is joined (or, without a thread, written and read by the caller).
    private var result: Value?
    private var thread: WorkerThreads.StartedThread?
    /// Set by the work's thread once `result` is written (released, so that a caller who sees it
    /// set sees the result).
    private let done = Atomic(false)

    public init(_ work: @escaping @Sendable () -> Value) {
        // Not retained by its thread: `deinit` joins the thread, so the object outlives it (and a
        // thread holding the last reference would join itself).
        thread = WorkerThreads.start { [unowned(unsafe) self] in
            self.result = work()
            self.done.store(true, ordering: .releasing)
        }
        if thread == nil {
            result = work()
            done.store(true, ordering: .releasing)
        }
    }

    deinit {
        thread?.join()
    }

    /// Whether the work is done: ``value()`` then returns at once.
    public var isDone: Bool { done.load(ordering: .acquiring) }

    /// The work's result, once it is done.
    public func value() -> Value {
        if let thread {
            thread.join()
            self.thread = nil
        }
        return result!
    }
}
