import Testing

@testable import MediaPlayerService

/// Position as clients read it between two publications: the one published, moved on by the time
/// since at the song's rate while it plays; and when a change of position is a seek.
@Suite("MediaPlayerExchange: position")
struct PositionTests {
    static let track = MediaPlayerTrack(number: 1, file: nil, title: "t", lengthMicroseconds: 10_000_000)

    static func contents(_ status: MediaPlayerState.PlaybackStatus, at microseconds: Int64, rate: Double = 1, published: ContinuousClock.Instant)
        -> MediaPlayerExchange.Contents
    {
        var contents = MediaPlayerExchange.Contents()
        contents.state = MediaPlayerState(status: status, rate: rate, track: track, positionMicroseconds: microseconds)
        contents.publishedAt = published
        return contents
    }

    @Test("playing, it moves on at the rate, up to the song's end; paused, it stays")
    func movesWhilePlaying() {
        let then = ContinuousClock.now
        let later = then + .milliseconds(1_500)
        #expect(MediaPlayerExchange.position(in: Self.contents(.playing, at: 1_000_000, published: then), at: later) == 2_500_000)
        #expect(MediaPlayerExchange.position(in: Self.contents(.playing, at: 1_000_000, rate: 2, published: then), at: later) == 4_000_000)
        #expect(MediaPlayerExchange.position(in: Self.contents(.playing, at: 9_000_000, published: then), at: later) == 10_000_000)
        #expect(MediaPlayerExchange.position(in: Self.contents(.paused, at: 1_000_000, published: then), at: later) == 1_000_000)
    }

    @Test("a position more than half a second from where playing took it is a seek; another song's start is not")
    func seeks() {
        let then = ContinuousClock.now
        let later = then + .seconds(1)
        let before = MediaPlayerState(status: .playing, track: Self.track, positionMicroseconds: 1_000_000)
        var after = before
        after.positionMicroseconds = 2_400_000
        #expect(!MediaPlayerService.isSeek(from: before, at: then, to: after, at: later))
        after.positionMicroseconds = 2_600_000
        #expect(MediaPlayerService.isSeek(from: before, at: then, to: after, at: later))
        after.track?.number = 2
        #expect(!MediaPlayerService.isSeek(from: before, at: then, to: after, at: later))
    }
}
