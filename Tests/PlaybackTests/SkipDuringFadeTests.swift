import Files
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// A skip (`n`, a desktop's next, a song chosen in the queue) fades the song out before the one
/// skipped to starts; what follows that song is prepared only once the engine plays it. Prepared
/// during the fade, it was the song after the one skipped from (the one skipped to, again), and the
/// load that ended the fade dropped it: the queue stalled at the end of the song skipped to.
@Suite("Player: a skip during a fade-out")
struct SkipDuringFadeTests {
    @Test("after a skip looked at before the fade ends, the song after the one skipped to plays, then the queue ends")
    func theQueueGoesOnAfterTheSongSkippedTo() throws {
        let folder = try TemporaryFolder()
        let files = try [60, 64, 67].map { key in
            let path = folder.file("\(key).mid")
            try Data(SMFWriter().encode(QueueFromSongEndTests.note(UInt8(key)).file)).write(to: URL(fileURLWithPath: path))
            return FilePath(path)
        }
        // 20 ms of output: a skip fades out, not flushes.
        let (player, sink) = try SeekHandoverTests.player(playing: files, latencySeconds: 0.02)
        sink.play(player, seconds: 0.3)
        #expect(player.next())
        // Looked at before the engine has started the fade (as the interface does, 10-20 times a second).
        _ = player.update()
        var places: [Int] = []
        var ended = false
        for _ in 0..<40 {
            sink.play(player, seconds: 0.1)
            let snapshot = player.update()
            if places.last != snapshot.place { places.append(snapshot.place) }
            if snapshot.hasEnded {
                ended = true
                break
            }
        }
        #expect(places == [1, 2], "the places played after the skip")
        #expect(ended, "the queue did not end after its last song")
    }
}
