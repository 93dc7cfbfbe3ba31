import SMF
import Testing

@testable import Playback

/// Seeks pressed faster than they are heard add up: each goes on from the last one's place, not
/// from what the output still plays before it (the engine takes a seek at its next buffer, and
/// the output's latency later it is heard).
@Suite struct QuickSeekTests {
    /// 40 s of silence but for A4 from 20.05 s to 21 s.
    static let noteAtTwentySeconds = TestSongs.song { track in
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        track.append(.noteOn(channel: 0, note: 69, velocity: 110), atTick: TestSongs.tick(20.05))
        track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(21))
        track.append(.meta(.endOfTrack), atTick: TestSongs.tick(40))
    }

    @Test("four +5 s seeks, two of them before the engine took the one before and all before any was heard, are heard at 20 s")
    func quickSeeksAddUp() throws {
        let (player, sink) = try SeekHandoverTests.player(playing: Self.noteAtTwentySeconds, latencySeconds: 0.05)
        // A request of the sound server at a time (12.5 ms), as a 50 ms output asks for them.
        let request = 551
        sink.record(frames: request)
        player.seek(bySeconds: 5)
        player.seek(bySeconds: 5)
        sink.record(frames: request)
        player.seek(bySeconds: 5)
        sink.record(frames: request)
        player.seek(bySeconds: 5)
        let lastSeek = sink.recorded.count / 2
        for _ in 0..<40 { sink.record(frames: request) }
        // The last seek fades out what plays (silence here), then the song goes on from its place:
        // where the note starts in the recording tells that place.
        let onset = try #require(
            (lastSeek..<sink.recorded.count / 2).first { abs(sink.recorded[2 * $0]) > 0.01 },
            "the note at 20.05 s was not heard in the 0.5 s after the seeks")
        let landed = 20.05 - Double(onset - lastSeek - PlaybackEngine.fadeFrames) / SeekHandoverTests.rate
        #expect(abs(landed - 20) < 0.01, "the seeks were heard at \(landed) s, not 20 s")
        // And the player says so once it has been heard.
        let heard = player.update().heardSeconds
        let expected = 20 + Double(sink.recorded.count / 2 - lastSeek - PlaybackEngine.fadeFrames) / SeekHandoverTests.rate - 0.055
        #expect(abs(heard - expected) < 0.01, "the player shows \(heard) s heard, the sound is at \(expected) s")
    }

    @Test("once a seek has been heard, the next goes on from what is heard: the song moved on meanwhile")
    func aSeekHeardIsLeftBehind() throws {
        let (player, sink) = try SeekHandoverTests.player(playing: Self.noteAtTwentySeconds, latencySeconds: 0.05)
        player.seek(bySeconds: 10)
        sink.pull(seconds: 1)
        let heard = player.update().heardSeconds
        player.seek(bySeconds: 5)
        sink.pull(seconds: 0.2)
        // 0.2 s on from the seek's place, less the output's latency and the limiter's look-ahead
        // (55 ms) and the fade (6 ms); from the first seek's place it would be a second short.
        let expected = heard + 5 + 0.2 - 0.055
        let shown = player.update().heardSeconds
        #expect(abs(shown - expected) < 0.01, "heard \(shown) s after seeking 5 s on from \(heard) s, not \(expected) s")
    }
}
