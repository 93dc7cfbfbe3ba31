/// Holds threads back until every one of a group has been made, then lets them all go on, or
/// sends them all home (see ``WorkerThreads/runTogether(helpers:_:alongside:)``).
final class StartGate: @unchecked Sendable {
    // @unchecked: `decision` is read and written only under `condition`'s lock, which it owns.
    private let condition = ThreadCondition()
    /// Nil until the gate opens; then whether the workers are to run.
    private var decision: Bool?

    /// Waits until the gate opens; returns whether to run.
    func waitForStart() -> Bool {
        condition.withLock {
            while decision == nil { condition.wait() }
            return decision ?? false
        }
    }

    func open(go: Bool) {
        condition.withLock {
            decision = go
            condition.broadcast()
        }
    }
}
