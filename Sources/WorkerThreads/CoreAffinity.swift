#if canImport(Glibc)
    import Glibc
#endif

/// Which core a thread runs on, and moving a new thread off its maker's core. Linux's calls for
/// this (`sched_getcpu`, `sched_getaffinity`, `sched_setaffinity`) are GNU extensions that
/// Swift's Glibc module leaves out, so they are looked up in the C library at run time; where
/// they are missing, threads run where the scheduler puts them.
enum CoreAffinity {
    private typealias CurrentCore = @convention(c) () -> Int32
    private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    private static let calls: (current: CurrentCore, get: Affinity, set: Affinity)? = {
        let library = UnsafeMutableRawPointer(bitPattern: 0) // RTLD_DEFAULT
        guard let current = dlsym(library, "sched_getcpu"), let get = dlsym(library, "sched_getaffinity"),
            let set = dlsym(library, "sched_setaffinity")
        else { return nil }
        return (
            unsafeBitCast(current, to: CurrentCore.self), unsafeBitCast(get, to: Affinity.self),
            unsafeBitCast(set, to: Affinity.self)
        )
    }()

    /// The core the calling thread runs on, or nil when that cannot be told.
    static var currentCore: Int32? {
        guard let core = calls?.current(), core >= 0 else { return nil }
        return core
    }

    /// Moves the calling thread to another of the cores it may run on than `core`, if there is
    /// one, and lets it run anywhere it could again: where it now is it stays, unless the load
    /// calls for a move. For a new thread, with `core` its maker's: see `WorkerThreads` on why
    /// the scheduler of a virtual machine leaves it there.
    static func leave(_ core: Int32) {
        guard let calls, core >= 0 else { return }
        // A cpu_set_t: 1,024 bits.
        var allowed = [UInt64](repeating: 0, count: 16)
        let bytes = allowed.count * MemoryLayout<UInt64>.size
        guard allowed.withUnsafeMutableBytes({ calls.get(0, bytes, $0.baseAddress!) }) == 0,
            Int(core) < allowed.count * 64
        else { return }
        var elsewhere = allowed
        elsewhere[Int(core) / 64] &= ~(1 << UInt64(core % 64))
        guard elsewhere != allowed, elsewhere.contains(where: { $0 != 0 }) else { return }
        guard elsewhere.withUnsafeMutableBytes({ calls.set(0, bytes, $0.baseAddress!) }) == 0 else { return }
        _ = allowed.withUnsafeMutableBytes { calls.set(0, bytes, $0.baseAddress!) }
    }
}
