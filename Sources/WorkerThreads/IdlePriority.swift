#if canImport(Glibc)
    import Glibc
#endif

/// Work that must never take time another thread wants: measuring loudness beside a render or
/// behind the audio thread.
public enum IdlePriority {
    /// Makes the calling thread run only on time no other thread wants: Linux's `SCHED_IDLE`
    /// (which Swift's Glibc does not import: sched.h defines it under _GNU_SOURCE), else the
    /// lowest nice value. For the calling thread alone: Linux schedules threads, and "this
    /// process" (0) means the calling thread.
    public static func enterForThisThread() {
        let schedIdle: Int32 = 5
        var parameters = sched_param()
        if sched_setscheduler(0, schedIdle, &parameters) != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) }
    }
}
