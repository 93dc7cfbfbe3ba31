import Testing

@testable import Playback

/// `n` (or a desktop's next) on the queue's last file: nothing to go to, which the interface says;
/// the file plays on, and the queue stays at it.
@Suite struct NextOnLastSongTests {
    @Test("next on the last file: false, the queue still at it, the song playing on; with repeat all: true, the first again")
    func nextOnTheLastFile() throws {
        let (player, sink) = try SeekHandoverTests.player(playing: TestSongs.stringsNote, latencySeconds: 0.05)
        sink.pull(seconds: 0.3)
        #expect(!player.next())
        #expect(player.queue.place == 0 && player.queue.current != nil, "the queue moved past its end: place \(player.queue.place)")
        sink.pull(seconds: 0.2)
        let snapshot = player.update()
        #expect(!snapshot.hasEnded && snapshot.heardSeconds > 0.4, "\(snapshot.heardSeconds) s heard, ended: \(snapshot.hasEnded)")
        // Its file is gone with the helper's folder: the song is read again from here.
        player.preloadedSongs[player.queue.items[0]] = TestSongs.stringsNote
        player.repeatMode = .all
        #expect(player.next())
        sink.pull(seconds: 0.1)
        #expect(player.update().heardSeconds < 0.1)
    }
}
