#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Playback
import Synchronization

/// Turns Ctrl-C (SIGINT) and SIGTERM into a cancellation, so that work in
/// progress stops cleanly and leaves no half-written file.
final class InterruptTrap {
    let cancellation = Cancellation()
    private let received = ReceivedSignal()
    private let sources: [any DispatchSourceSignal]

    init() {
        let cancellation = cancellation
        let received = received
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                received.number.store(number, ordering: .relaxed)
                cancellation.cancel()
            }
            source.resume()
            return source
        }
    }

    /// The exit status a shell expects after the signal (130 for SIGINT, 143 for SIGTERM), if one came.
    var exitStatus: Int32? {
        let number = received.number.load(ordering: .relaxed)
        return number == 0 ? nil : 128 + number
    }
}

/// The last signal received, shared with the handlers.
private final class ReceivedSignal: Sendable {
    let number = Atomic<Int32>(0)
}
