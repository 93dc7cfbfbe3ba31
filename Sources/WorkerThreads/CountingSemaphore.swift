#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX semaphore: a count that `post` raises and `wait` lowers, waiting while it is 0. Fit
/// for a real-time thread where a lock is not: posting never waits, and neither allocates.
public final class CountingSemaphore: @unchecked Sendable {
    // @unchecked: a POSIX semaphore, made for use from many threads.
    private let semaphore: UnsafeMutablePointer<sem_t>

    public init(count: UInt32 = 0) {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, count)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    public func post() {
        sem_post(semaphore)
    }

    /// Waits until the count is above 0, then lowers it (a signal's interruption goes on waiting).
    public func wait() {
        while sem_wait(semaphore) != 0, errno == EINTR {}
    }
}
