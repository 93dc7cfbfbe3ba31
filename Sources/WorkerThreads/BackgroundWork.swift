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

    public init(_ work: @escaping @Sendable () -> Value) {
        // Not retained by its thread: `deinit` joins the thread, so the object outlives it (and a
        // thread holding the last reference would join itself).
        thread = WorkerThreads.start { [unowned(unsafe) self] in self.result = work() }
        if thread == nil { result = work() }
    }

    deinit {
        thread?.join()
    }

    /// The work's result, once it is done.
    public func value() -> Value {
        if let thread {
            thread.join()
            self.thread = nil
        }
        return result!
    }
}
