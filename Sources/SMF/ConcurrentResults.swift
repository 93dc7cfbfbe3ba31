import Synchronization
import WorkerThreads

/// Runs independent jobs on all cores and collects their results in order.
final class ConcurrentResults<Value, Failure: Error>: @unchecked Sendable {
    // Each job writes only its own slot, and reading waits for every job.
    private var slots: [Result<Value, Failure>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func fill(_ job: (Int) throws(Failure) -> Value) {
        slots.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots
            withoutActuallyEscaping(job) { job in
                nonisolated(unsafe) let job = job
                let next = Atomic(0)
                WorkerThreads.run(count: min(WorkerThreads.processorCount, slots.count)) { _ in
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < slots.count else { return }
                        slots[index] = Result { () throws(Failure) -> Value in try job(index) }
                    }
                }
            }
        }
    }

    /// Every job's result, in job order.
    func results() -> [Result<Value, Failure>] {
        slots.map { $0! }
    }
}
