import Synchronization

/// Problems said on other threads (the loudness memory's, from the measuring thread), kept for
/// the interface's thread to report with its own (``Player``'s `onProblem`), when it next looks.
final class ProblemInbox: Sendable {
    private let problems = Mutex<[String]>([])

    func add(_ problem: String) {
        problems.withLock { $0.append(problem) }
    }

    /// What was said since the last call, in order.
    func take() -> [String] {
        problems.withLock { problems in
            defer { problems = [] }
            return problems
        }
    }
}
