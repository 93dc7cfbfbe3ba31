import SMF
import Synthesis
import Testing

@testable import Playback

/// The keyboard lights a key, and a channel's meter jumps, when the note is heard, the output's
/// latency after it is rendered (``HeardLooks``).
@Suite struct HeardLooksTests {
    static func keys(_ pressed: [Int]) -> [UInt64] {
        var keys = [UInt64](repeating: 0, count: PressedKeys.keyCount)
        for key in pressed { keys[key] = 1 }
        return keys
    }

    @Test("a look shows once its frame is heard; looks heard together show merged, so a note between two looks is not lost")
    func looksShowWhenHeard() {
        var heard = HeardLooks.keys()
        #expect(heard.look(Self.keys([60]), generation: 0, frame: 1_000, heardFrame: 0) == Self.keys([]))
        #expect(heard.look(Self.keys([]), generation: 0, frame: 2_000, heardFrame: 999) == Self.keys([]))
        #expect(heard.look(Self.keys([64]), generation: 0, frame: 3_000, heardFrame: 1_000) == Self.keys([60]))
        // Nothing more heard: what sounds stays shown.
        #expect(heard.look(Self.keys([64]), generation: 0, frame: 3_500, heardFrame: 1_500) == Self.keys([60]))
        // The looks at 2,000 (60 released) and 3,000 and 3,500 (64) are heard at once.
        #expect(heard.look(Self.keys([67]), generation: 0, frame: 4_000, heardFrame: 3_500) == Self.keys([64]))
        var short = HeardLooks.keys()
        _ = short.look(Self.keys([72]), generation: 0, frame: 1_000, heardFrame: 0)
        #expect(short.look(Self.keys([]), generation: 0, frame: 2_000, heardFrame: 2_000) == Self.keys([72]))
    }

    @Test("a song standing still (stopped, ended, run dry) keeps one look, its keys merged, however often the player looks")
    func aSongStandingStillKeepsOneLook() {
        var heard = HeardLooks.keys()
        for key in 0..<100 { _ = heard.look(Self.keys([key]), generation: 0, frame: 5_000, heardFrame: 2_000) }
        #expect(heard.looks.count == 1)
        #expect(heard.look(Self.keys([]), generation: 0, frame: 5_000, heardFrame: 5_000) == Self.keys(Array(0..<100)))
    }

    @Test("a seek back or another song drops the looks of the place left: they will never be heard")
    func aSeekBackDropsTheLooks() {
        var heard = HeardLooks.keys()
        _ = heard.look(Self.keys([60]), generation: 0, frame: 50_000, heardFrame: 48_000)
        #expect(heard.look(Self.keys([62]), generation: 0, frame: 1_000, heardFrame: 1_000) == Self.keys([62]))
        _ = heard.look(Self.keys([64]), generation: 0, frame: 3_000, heardFrame: 1_000)
        #expect(heard.look(Self.keys([65]), generation: 1, frame: 500, heardFrame: 500) == Self.keys([65]))
    }

    @Test("through the player, with a 50 ms output: a note's key lights when the note is heard, not when it is rendered")
    func theKeyLightsWithTheSound() throws {
        // The first look that found it was taken up to a request (12.5 ms) after 1 s was
        // rendered, and shows at the first look after that is heard: up to two requests late.
        // Lit when rendered, it would light 55 ms early (the output's latency and the limiter's
        // look-ahead).
        let lit = try #require(try Self.heardSeconds { $0.pressedKeys[69] != 0 }, "the key never lit")
        #expect(lit >= 1.0 && lit < 1.0 + 0.026, "the key lit at \(lit) s of sound; the note starts at 1 s")
    }

    @Test("channels heard together show the latest instrument and the hardest strike, each strike once")
    func channelsMerge() {
        func channel(_ instrument: String, _ velocity: UInt8) -> [ChannelSnapshot] {
            [ChannelSnapshot(number: 1, instrument: instrument, isDrum: false, velocity: velocity)]
        }
        var heard = HeardLooks.channels()
        #expect(heard.look(channel("Piano", 90), generation: 0, frame: 1_000, heardFrame: 0) == [])
        _ = heard.look(channel("Strings", 40), generation: 0, frame: 2_000, heardFrame: 0)
        #expect(heard.look(channel("Strings", 0), generation: 0, frame: 3_000, heardFrame: 2_000) == channel("Strings", 90))
        // Nothing more heard: the instrument stays, the strikes were shown once.
        #expect(heard.look(channel("Strings", 70), generation: 0, frame: 4_000, heardFrame: 2_500) == channel("Strings", 0))
        #expect(heard.look(channel("Strings", 0), generation: 0, frame: 5_000, heardFrame: 4_000) == channel("Strings", 70))
    }

    @Test("through the player, with a 50 ms output: a channel's meter jumps when its note is heard, not when it is rendered")
    func theChannelStrikesWithTheSound() throws {
        // Up to two requests late, as the key (theKeyLightsWithTheSound); 55 ms early as rendered.
        let struck = try #require(try Self.heardSeconds { $0.channels.first?.velocity ?? 0 > 0 }, "the channel's meter never moved")
        #expect(struck >= 1.0 && struck < 1.0 + 0.026, "the channel was struck at \(struck) s of sound; the note starts at 1 s")
    }

    /// Plays A4 on channel 1 from 1 s to 1.5 s through the player, with a 50 ms output pulled a
    /// request (551 frames) at a time and the player looked at after each; returns the time heard
    /// at the first look where `shows` holds, nil if none in 2 s.
    static func heardSeconds(when shows: (PlayerSnapshot) -> Bool) throws -> Double? {
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 19), atTick: 0)
            track.append(.noteOn(channel: 0, note: 69, velocity: 100), atTick: TestSongs.tick(1))
            track.append(.noteOff(channel: 0, note: 69, velocity: 0), atTick: TestSongs.tick(1.5))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(2))
        }
        let (player, sink) = try SeekHandoverTests.player(playing: song, latencySeconds: 0.05)
        while sink.recorded.count / 2 < 2 * 44_100 {
            sink.record(frames: 551)
            let snapshot = player.update()
            if shows(snapshot) { return snapshot.heardSeconds }
        }
        return nil
    }
}
