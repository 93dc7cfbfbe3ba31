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
    /// be made has its worker run on the caller's thread after worker 0.
    public static func run(count: Int, _ body: (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
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
    }

    /// Like ``run(count:_:)``, for workers that wait for one another (one consumes what the others
    /// make): every worker runs on a thread of its own at once, or none runs at all. Returns false,
    /// having called `body` for no worker, when a thread cannot be made.
    public static func runTogether(count: Int, _ body: (Int) -> Void) -> Bool {
        guard count > 1 else {
            if count == 1 { body(0) }
            return true
        }
        return withoutActuallyEscaping(body) { body in
            let gate = StartGate()
            var threads: [pthread_t] = []
            for worker in 1..<count {
                guard let thread = startThread(Work(worker: worker, body: { worker in
                    if gate.waitForStart() { body(worker) }
                })) else { break }
                threads.append(thread)
            }
            let allStarted = threads.count == count - 1
            gate.open(go: allStarted)
            if allStarted {
                letNewThreadsRun()
                body(0)
            }
            for thread in threads { pthread_join(thread, nil) }
            return allStarted
        }
    }

    /// Calls `body` on a thread of its own that nobody waits for: for work that the process may
    /// end without (a SoundFont loaded ahead of need). Returns false, having called nothing,
    /// when the thread cannot be made.
    public static func detach(_ body: @escaping () -> Void) -> Bool {
        guard let thread = startThread(Work(worker: 0, body: { _ in body() })) else { return false }
        pthread_detach(thread)
        letNewThreadsRun()
        return true
    }

    /// Calls `body` on a thread of its own, which the caller joins (``StartedThread/join()``):
    /// for a thread that serves for long (the part threads of live play). Nil, having called
    /// nothing, when the thread cannot be made.
    public static func start(_ body: @escaping () -> Void) -> StartedThread? {
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
        work.makerCore = CoreAffinity.currentCore
        let retained = Unmanaged.passRetained(work).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { work in
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

    /// What one thread runs. The body outlives no call of `run`, which joins every thread (but
    /// that of ``detach(_:)``, which owns its body).
    private final class Work: @unchecked Sendable {
        let worker: Int
        let body: (Int) -> Void
        /// The core of the thread that made this one, which this one leaves first (`CoreAffinity.leave`).
        var makerCore: Int32?

        init(worker: Int, body: @escaping (Int) -> Void) {
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
