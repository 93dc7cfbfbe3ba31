#if canImport(Glibc)
    import Glibc
#endif

/// Runs work on several threads of smfplay's own and waits for all of them: the one way smfplay
/// uses more than one core for a task (reading a folder's files, indexing, rendering a batch).
///
/// Not libdispatch's `concurrentPerform`: on Linux (Swift 6.3, swift-corelibs-libdispatch),
/// `dispatch_apply` called from a thread of the global pool, where Swift concurrency and
/// `DispatchQueue.global().async` run their work, left a freed continuation in that thread's
/// cache, which the thread freed again when it ended (AddressSanitizer: "attempting double-free"
/// in `_dispatch_cache_cleanup`; without it, `malloc_consolidate(): unaligned fastbin chunk` and
/// crashes about one run in four). Threads made and joined here own nothing of libdispatch's.
public enum WorkerThreads {
    /// Calls `body(worker)` for each worker from 0 to `count` - 1, each on a thread of its own
    /// (worker 0 on the caller's), and returns once every call has returned. A thread that cannot
    /// be made has its worker run on the caller's thread after worker 0. `body` is `@Sendable`:
    /// the compiler checks what the workers share.
    public static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        var threads: [pthread_t] = []
        var notStarted: [Int] = []
        for worker in 1..<count {
            if let thread = startThread(Work(worker: worker, body: body)) {
                threads.append(thread)
            } else {
                notStarted.append(worker)
            }
        }
        if !threads.isEmpty { letNewThreadsRun() }
        body(0)
        notStarted.forEach(body)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `helper(index)` for each index from 0 to `helpers` - 1, each on a thread of its own,
    /// and `caller` on the caller's thread meanwhile: for work that waits for one another (the
    /// caller consumes what the helpers make), so every helper runs at once, or none does. Returns
    /// false, having called nothing, when a thread cannot be made; otherwise once `caller` and
    /// every helper have returned. `caller` stays on this thread: it need not be `Sendable`.
    public static func runTogether(helpers: Int, _ helper: @escaping @Sendable (Int) -> Void, alongside caller: () -> Void) -> Bool {
        let gate = StartGate()
        var threads: [pthread_t] = []
        for index in 0..<helpers {
            guard
                let thread = startThread(
                    Work(
                        worker: index,
                        body: { index in
                            if gate.waitForStart() { helper(index) }
                        }))
            else { break }
            threads.append(thread)
        }
        let allStarted = threads.count == helpers
        gate.open(go: allStarted)
        if allStarted {
            if helpers > 0 { letNewThreadsRun() }
            caller()
        }
        for thread in threads { pthread_join(thread, nil) }
        return allStarted
    }

    /// Calls `body` on a thread of its own that nobody waits for: for work that the process may
    /// end without (a SoundFont loaded ahead of need). Returns false, having called nothing,
    /// when the thread cannot be made.
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = startThread(Work(worker: 0, body: { _ in body() })) else { return false }
        pthread_detach(thread)
        letNewThreadsRun()
        return true
    }

    /// Calls `body` on a thread of its own, which the caller joins (``StartedThread/join()``):
    /// for a thread that serves for long (the part threads of live play). Nil, having called
    /// nothing, when the thread cannot be made.
    public static func start(_ body: @escaping @Sendable () -> Void) -> StartedThread? {
        let thread = startThread(Work(worker: 0, body: { _ in body() }))
        if thread != nil { letNewThreadsRun() }
        return thread.map(StartedThread.init)
    }

    /// A thread made by ``start(_:)``.
    public struct StartedThread: Sendable {
        fileprivate let thread: pthread_t

        /// Waits for the thread's body to return.
        public func join() {
            pthread_join(thread, nil)
        }
    }

    /// A thread running `work`, to be joined; nil when none can be made.
    private static func startThread(_ work: Work) -> pthread_t? {
        let retained = Unmanaged.passRetained(work).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { work in
                let work = Unmanaged<Work>.fromOpaque(work!).takeRetainedValue()
                if let core = work.makerCore { CoreAffinity.leave(core) }
                work.body(work.worker)
                return nil
            }, retained)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(retained).release()
            return nil
        }
        return thread
    }

    /// Sleeps for a moment after making threads, so that they run at once. In a virtual machine
    /// Linux may queue a new thread on its maker's core, behind its maker, until a scheduler tick
    /// moves one of them, while another core idles (likely because the host has paused the idle
    /// vCPU, which the guest then takes for busy; not verified). On the 2-core VM of
    /// BENCHMARKS.md a new thread began 3.9 ms late while its maker computed, and once started,
    /// the two then stalled each other for up to 5 ms. The maker's sleep lets the new thread
    /// start (within 0.05 ms), and the new thread's first act is to leave its maker's core
    /// (`CoreAffinity.leave`), after which neither stalled in ten tries. A real machine's idle
    /// cores take a new thread at once; there the sleep costs the maker 0.1 ms.
    private static func letNewThreadsRun() {
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000)
        nanosleep(&pause, nil)
    }

    /// What one thread runs.
    private final class Work: Sendable {
        let worker: Int
        let body: @Sendable (Int) -> Void
        /// The core of the thread that made this one, which this one leaves first (`CoreAffinity.leave`).
        let makerCore = CoreAffinity.currentCore

        init(worker: Int, body: @escaping @Sendable (Int) -> Void) {
            self.worker = worker
            self.body = body
        }
    }

    /// The cores this process may run on: those its CPU affinity allows (`taskset`, a cgroup's
    /// cpuset, a Slurm allocation), else every core online.
    public static var processorCount: Int {
        allowedProcessorCount ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The bits of the `Cpus_allowed` mask in /proc/self/status (Swift's Glibc lacks
    /// `sched_getaffinity`, a GNU extension); nil where there is no such line.
    private static var allowedProcessorCount: Int? {
        guard let status = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(status) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), status) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Cpus_allowed:") else { continue }
            let count = text.dropFirst("Cpus_allowed:".count).reduce(0) { $0 + ($1.hexDigitValue ?? 0).nonzeroBitCount }
            return count > 0 ? count : nil
        }
        return nil
    }
}
