#if canImport(Glibc)
    import Glibc
#endif

/// How much a thread yields to the others of its process: its nice value, which Linux keeps for
/// each thread ("this process" (0) means the calling thread).
public enum ThreadNiceness {
    /// Makes the calling thread yield more to the others, `steps` nice values up (to 19 at most):
    /// for threads that feed one that must keep up with them (the index's readers and its one
    /// writer), so that the one gets the core it needs and they take what is left.
    public static func raiseForThisThread(by steps: Int32) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        setpriority(which, 0, min(19, current + steps))
    }
}
