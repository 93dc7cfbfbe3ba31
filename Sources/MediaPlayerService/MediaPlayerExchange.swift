import Synchronization

/// What the play loop and the bus thread hand each other, under one lock that neither holds for
/// more than a copy: the state published last (which the bus thread answers from), the requests
/// clients made (which the play loop takes), and the signals due.
final class MediaPlayerExchange: Sendable {
    struct Contents {
        var state = MediaPlayerState()
        /// When `state` was published: Position goes on from there while the music plays.
        var publishedAt = ContinuousClock.now
        var requests: [MediaPlayerRequest] = []
        /// Player properties whose change is still to be signalled, in order, each once.
        var changedProperties: [String] = []
        var seeked = false
        var isClosing = false
    }

    let contents = Mutex(Contents())

    /// The position heard now: the one published, moved on by the time since when the music plays.
    /// Never past the song's end, nor before its start.
    static func position(in contents: Contents, at now: ContinuousClock.Instant) -> Int64 {
        guard contents.state.status == .playing else { return contents.state.positionMicroseconds }
        let elapsed = now - contents.publishedAt
        let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        let moved = contents.state.positionMicroseconds + Int64(microseconds * contents.state.rate)
        return max(0, min(moved, contents.state.track?.lengthMicroseconds ?? moved))
    }
}
