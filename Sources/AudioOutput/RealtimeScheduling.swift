#if canImport(Glibc)
    import Glibc
#endif

/// Whether the thread that renders the audio runs ahead of ordinary threads.
///
/// At normal priority the render thread waits its turn behind every busy process (a compiler,
/// a browser tab), and a 50 ms buffer runs dry. Audio programs ask the kernel for a real-time
/// policy instead, as FluidSynth's own drivers and PulseAudio's server do; the kernel grants it
/// to root and to users whose `RLIMIT_RTPRIO` allows it (`ulimit -r`, the "audio" group's limits),
/// and refuses it to others, who then play at normal priority.
public enum RealtimeScheduling: Equatable, Sendable {
    /// Not known yet: the thread has not started.
    case pending
    /// `SCHED_FIFO` at this priority.
    case granted(priority: Int32)
    /// Refused, with the kernel's reason.
    case refused(reason: String)

    /// Just under the PulseAudio server's own default (5): the server, which has the harder
    /// deadline, goes first; every ordinary thread goes after.
    static let priority: Int32 = 4

    /// Asks for `SCHED_FIFO` for the calling thread only (on Linux a thread has its own policy),
    /// at `priority` or at the highest the user's limit allows. `SCHED_RESET_ON_FORK`: a process
    /// started from this thread gets an ordinary policy, as rtkit requires of its clients too.
    public static func requestForCurrentThread() -> RealtimeScheduling {
        var limit = rlimit()
        let allowed = getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0 ? Int32(clamping: limit.rlim_cur) : 0
        var candidates = [priority]
        if allowed > 0, allowed < priority { candidates.append(allowed) }
        for candidate in candidates {
            var parameters = sched_param(sched_priority: candidate)
            if sched_setscheduler(0, SCHED_FIFO | resetOnFork, &parameters) == 0 { return .granted(priority: candidate) }
        }
        return .refused(reason: String(cString: strerror(errno)))
    }

    /// `SCHED_RESET_ON_FORK`, which Glibc's Swift overlay does not export.
    private static let resetOnFork: Int32 = 0x4000_0000
}
