/// The output lost (the sound server gone, the stream dropped): why, since when, and when the
/// player tries to open it again. The waits between tries double from a quarter of a second to two
/// seconds: a server restarted is back within a second or two, and a try costs a connection
/// refused at once.
struct OutputReconnection {
    let failure: any Error
    let since: ContinuousClock.Instant
    private(set) var nextTry: ContinuousClock.Instant
    private var wait: Duration = .milliseconds(250)
    static let longestWait: Duration = .seconds(2)

    init(failure: any Error, at now: ContinuousClock.Instant) {
        self.failure = failure
        since = now
        nextTry = now
    }

    /// A try failed at `now`: the next one after a longer wait.
    mutating func tryFailed(at now: ContinuousClock.Instant) {
        nextTry = now + wait
        wait = min(wait * 2, Self.longestWait)
    }

    /// Whether `timeout` has passed since the output was lost.
    func hasTimedOut(_ timeout: Duration, at now: ContinuousClock.Instant) -> Bool {
        now - since >= timeout
    }
}
