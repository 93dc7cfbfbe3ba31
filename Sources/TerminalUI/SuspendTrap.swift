import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-Z (SIGTSTP) into a request that the interface thread takes when it next looks,
/// instead of the process stopping at once with the terminal in raw mode on its alternate screen.
/// The handler only sets a flag; the interface gives the terminal back, then stops the process
/// itself (`stopUntilContinued`).
final class SuspendTrap {
    private let request = SuspendRequest()
    private let source: any DispatchSourceSignal

    init() {
        let request = request
        signal(SIGTSTP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        source.setEventHandler { request.isPending.store(true, ordering: .relaxed) }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGTSTP, SIG_DFL)
    }

    /// Whether Ctrl-Z came since the last look.
    func takeRequest() -> Bool {
        request.isPending.exchange(false, ordering: .relaxed)
    }

    /// Stops the process as the shell's job control expects (SIGTSTP, its default action), and
    /// returns once it is continued (`fg`, SIGCONT); Ctrl-Z is trapped again from then on.
    func stopUntilContinued() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        signal(SIGTSTP, SIG_IGN)
    }
}

/// Ctrl-Z pressed and not yet taken, shared with the handler.
private final class SuspendRequest: Sendable {
    let isPending = Atomic<Bool>(false)
}
