import Synchronization

extension WorkerThreads {
    /// Runs `count` independent jobs on the cores this process may use (a thread each, the
    /// caller's among them, taking jobs in turn) and returns their results in job order.
    public static func results<Value: Sendable, Failure: Error>(ofJobs count: Int, _ job: @escaping @Sendable (Int) throws(Failure) -> Value)
        -> [Result<Value, Failure>]
    {
        let slots = ResultSlots<Value, Failure>(count: count)
        // One job runs on the caller's thread, without asking how many cores there are (a read of
        // /proc, which was a tenth of an index's time when every file was read as one job).
        run(count: count > 1 ? min(processorCount, count) : count) { _ in slots.fill(with: job) }
        return slots.results()
    }
}

/// One result per job, filled by whichever worker takes the job.
private final class ResultSlots<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: the atomic `next` gives each job to one worker, which alone writes its slot;
    // `results()` reads them after `run` has joined every worker.
    private let slots: UnsafeMutablePointer<Result<Value, Failure>?>
    private let count: Int
    private let next = Atomic(0)

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Takes jobs until none is left.
    func fill(with job: (Int) throws(Failure) -> Value) {
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            slots[index] = Result { () throws(Failure) -> Value in try job(index) }
        }
    }

    func results() -> [Result<Value, Failure>] {
        (0..<count).map { slots[$0]! }
    }
}
