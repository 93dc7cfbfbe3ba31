import Playback
import Testing

@testable import MediaPlayerService

/// MPRIS' loop statuses are the queue's repeat modes, one for one.
@Suite("MediaKeys: loop status")
struct LoopStatusTests {
    @Test("None, Track and Playlist are off, one and all, both ways")
    func oneForOne() {
        let pairs: [(MediaPlayerState.LoopStatus, PlayQueue.RepeatMode)] = [(.none, .off), (.track, .one), (.playlist, .all)]
        for (status, mode) in pairs {
            #expect(MediaKeys.repeatMode(status) == mode)
            #expect(MediaKeys.loopStatus(mode) == status)
        }
    }
}
