import Testing

@testable import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// Signals that stop smfplay cleanly, the resume state saved: each cancels the work under way,
/// and the exit status is the one a shell expects.
@Suite("Interrupt trap")
struct InterruptTrapTests {
    @Test("SIGHUP (the terminal closed): cancelled, exit status 129")
    func hangUp() async throws {
        // A trap's signals stay with Dispatch for the rest of the process: the test runner's
        // handling is put back after, so that Ctrl-C still stops it.
        let trapped = [SIGINT, SIGTERM, SIGHUP]
        var before = Array(repeating: sigaction(), count: trapped.count)
        for index in trapped.indices { sigaction(trapped[index], nil, &before[index]) }
        defer { for index in trapped.indices { sigaction(trapped[index], &before[index], nil) } }
        // Should the trap miss SIGHUP, this test fails instead of the signal ending the test run.
        signal(SIGHUP) { _ in }

        let trap = InterruptTrap()
        #expect(trap.exitStatus == nil)
        // Sent again until it is seen: the trap's handlers are set up on a queue of Dispatch, a moment later.
        for _ in 0..<200 where !trap.cancellation.isCancelled {
            kill(getpid(), SIGHUP)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(trap.cancellation.isCancelled)
        #expect(trap.exitStatus == 129)
    }
}
