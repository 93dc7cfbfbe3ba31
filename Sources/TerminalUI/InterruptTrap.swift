import Dispatch
import Playback
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) into a cancellation, so that
/// work in progress stops cleanly and leaves no half-written file, and the player saves where it was.
public final class InterruptTrap {
    public let cancellation = Cancellation()
    private let received = ReceivedSignal()
    private let sources: [any DispatchSourceSignal]

    public init() {
        let cancellation = cancellation
        let received = received
        let hangUp = Self.isHangUpIgnoredFromStart ? [] : [SIGHUP]
        sources = ([SIGINT, SIGTERM] + hangUp).map { number in
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

    /// SIGHUP was ignored when smfplay started (`nohup`): it goes on when the terminal closes.
    /// Read once, before the first trap ignores it too.
    private static let isHangUpIgnoredFromStart = {
        var action = sigaction()
        sigaction(SIGHUP, nil, &action)
        // Handlers are C function pointers, which Swift compares only as addresses.
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }()

    /// The exit status a shell expects after the signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), if one came.
    public var exitStatus: Int32? {
        let number = received.number.load(ordering: .relaxed)
        return number == 0 ? nil : 128 + number
    }
}

/// The last signal received, shared with the handlers.
private final class ReceivedSignal: Sendable {
    let number = Atomic<Int32>(0)
}
