#if canImport(Glibc)
    import Glibc
#endif

/// smfplay as an MPRIS 2.2 media player on the D-Bus session bus (`org.mpris.MediaPlayer2.smfplay`,
/// object `/org/mpris/MediaPlayer2`): the desktop's media keys, its sound applet, `playerctl` and
/// KDE Connect see what plays and control it.
///
/// ## Threads
///
/// - **The bus thread**, this service's own, is the only one that touches the D-Bus connection. It
///   answers property reads from the state published last (Position moved on by the time since),
///   checks each call (a file to open that is missing is refused there, with a D-Bus error), and
///   queues what the call asks for. It sleeps in `poll` on the bus and on a pipe that `publish`
///   writes to when a change must be signalled.
/// - **The play loop's thread** (the interface's, which owns the `Player`) calls
///   `takeRequests()` and does what they ask, then `publish(_:)` with what the player reports.
///   It goes round every 40 ms, so a call takes effect within 100 ms.
/// - **The audio thread** never sees any of this.
///
/// The two share one lock, held only to copy a state in or out, or to append a request.
public final class MediaPlayerService {
    /// The bus name taken: `org.mpris.MediaPlayer2.smfplay`, or
    /// `org.mpris.MediaPlayer2.smfplay.instance<pid>` beside another smfplay.
    public let busName: String
    private let exchange = MediaPlayerExchange()
    private let connection: BusConnection
    private var thread: pthread_t?
    /// What was published last, and when: a position that moves otherwise than by playing is a
    /// seek (by a key, a client, or a song's loop jumping back), which clients hear of.
    private var published: (state: MediaPlayerState, at: ContinuousClock.Instant)?

    /// How far the position may stray from where playing would have taken it before it counts as a
    /// seek: a paused output's buffer (the latency, 50 ms by default) and a late loop are less.
    static let seekThresholdMicroseconds: Int64 = 500_000

    /// Connects to the session bus and starts serving.
    public init() throws(MediaPlayerServiceError) {
        connection = try BusConnection(exchange: exchange)
        busName = connection.name
        let retained = Unmanaged.passRetained(connection).toOpaque()
        var started = pthread_t()
        guard
            pthread_create(
                &started, nil,
                { context in
                    let connection = Unmanaged<BusConnection>.fromOpaque(context!).takeRetainedValue()
                    connection.run()
                    return nil
                }, retained) == 0
        else {
            Unmanaged<BusConnection>.fromOpaque(retained).release()
            throw .registrationFailed(what: "a thread to serve it", reason: String(cString: strerror(errno)))
        }
        thread = started
    }

    deinit {
        close()
    }

    /// What clients asked for since the last call, oldest first.
    public func takeRequests() -> [MediaPlayerRequest] {
        exchange.contents.withLock { contents in
            defer { contents.requests = [] }
            return contents.requests
        }
    }

    /// The player's state now; clients hear of what changed (PropertiesChanged, Seeked).
    public func publish(_ state: MediaPlayerState) {
        let now = ContinuousClock.now
        let seeked = published.map { Self.isSeek(from: $0.state, at: $0.at, to: state, at: now) } ?? false
        let changed = published.map { state.changedProperties(since: $0.state) } ?? []
        published = (state, now)
        exchange.contents.withLock { contents in
            contents.state = state
            contents.publishedAt = now
            contents.changedProperties += changed.filter { !contents.changedProperties.contains($0) }
            contents.seeked = contents.seeked || seeked
        }
        if seeked || !changed.isEmpty { connection.wake() }
    }

    static func isSeek(from before: MediaPlayerState, at then: ContinuousClock.Instant, to after: MediaPlayerState, at now: ContinuousClock.Instant)
        -> Bool
    {
        guard let track = after.track, track.number == before.track?.number else { return false }
        var contents = MediaPlayerExchange.Contents()
        contents.state = before
        contents.publishedAt = then
        let expected = MediaPlayerExchange.position(in: contents, at: now)
        return abs(after.positionMicroseconds - expected) > seekThresholdMicroseconds
    }

    /// Stops serving and leaves the bus (`deinit` does it too).
    public func close() {
        guard let thread else { return }
        self.thread = nil
        exchange.contents.withLock { $0.isClosing = true }
        connection.wake()
        pthread_join(thread, nil)
    }
}
