#if canImport(Glibc)
    import Glibc
#endif

/// A lock with a condition to wait on (a pthread mutex and condition variable): for threads that
/// wait for one another's work, as the workers of ``WorkerThreads/runTogether(helpers:_:alongside:)`` do.
public final class ThreadCondition: @unchecked Sendable {
    // @unchecked: a pthread mutex and condition variable, made for use from many threads.
    // Allocated, not stored properties: pthread objects must not move, and Swift does not
    // promise a stored property a fixed address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside ``withLock(_:)`` only: lets the lock go until another thread calls ``broadcast()``,
    /// then takes it again. Wakes may come without a broadcast: wait in a loop on the state.
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread waiting.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
