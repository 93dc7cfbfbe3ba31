import Synchronization
import Testing
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// The nice value the index's readers take to yield to its writer (here, where it is used).
struct ThreadNicenessTests {
    @Test("a thread's nice value goes up by the steps asked, to 19 at most, and only that thread's")
    func raisesTheCallingThreadOnly() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let mine = getpriority(which, 0)
        let seen = Mutex<[Int32]>([])
        WorkerThreads.run(count: 2) { worker in
            guard worker == 1 else { return }
            let before = getpriority(which, 0)
            ThreadNiceness.raiseForThisThread(by: 3)
            let raised = getpriority(which, 0)
            ThreadNiceness.raiseForThisThread(by: 30)
            seen.withLock { $0 = [before, raised, getpriority(which, 0)] }
        }
        let values = seen.withLock { $0 }
        #expect(values == [mine, min(19, mine + 3), 19])
        #expect(getpriority(which, 0) == mine)
    }
}
