import Foundation
import SMF
import Synthesis
import SystemPackage
import Testing

@testable import Playback

/// A song split while its output goes on in real time: the output is paced by the wall clock, so
/// these run with the real-time suites, alone (`make test`), where no other test competes for
/// the cores and stretches the time the split takes.
@Suite struct RealTimeSplitTests {
    @Test("a song split while it plays goes on from where the engine is once the split is ready, not from where it was when the split began")
    func aSplitGoesOnFromWhereTheSongIsOnceReady() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("long.mid")
        // Two notes a second for 120 s: the output must not reach the end during the split.
        let song = TestSongs.song { track in
            for beat in 0..<240 {
                let key = UInt8(60 + beat % 12)
                track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: TestSongs.tick(Double(beat) / 2))
                track.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: TestSongs.tick(Double(beat) / 2 + 0.4))
            }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(120))
        }
        try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
        let (player, sink) = try LiveSplitTests.player(split: .whenNeeded(cores: 2))
        #expect(player.play(PlayQueue(files: [FilePath(path)])))
        sink.pull(seconds: 0.2)
        let before = player.update().heardSeconds
        // The output goes on rendering, at up to ten times real time (so that the song moves on
        // by a tenth of a second even if the split takes only 10 ms), while the part synthesizer
        // is made and the song probed.
        let stop = LiveSplitTests.Flag()
        let stopped = LiveSplitTests.Flag()
        Thread.detachNewThread {
            while !stop.isSet {
                sink.pull(seconds: 0.01)
                usleep(1_000)
            }
            stopped.set()
        }
        player.splitIfOverloaded(renderLoad: Player.overloadedRenderLoad, underrunsSinceLastLook: 0)
        let ready = player.update().heardSeconds
        stop.set()
        while !stopped.isSet { usleep(1_000) }
        // The engine takes the split song at its next buffer, fades the old one out over 256
        // frames and goes on from the plan's place.
        sink.pull(seconds: 0.05)
        let after = player.update()
        #expect(after.cores == 2)
        #expect(ready - before > 0.1, "the song moved on by \(ready - before) s during the split: the test could not fail")
        // The plan is made once the split is ready, and the interface's work after it (the next
        // song prepared again, this look at the player) is short beside the split's: the song
        // goes on from the last quarter of the way between where the split began and where it
        // was when the split returned, not from near where it began.
        let lowest = ready - (ready - before) / 4 - 0.03
        #expect(
            after.heardSeconds >= lowest && after.heardSeconds <= ready + 0.5,
            "split at \(ready) s (it began at \(before) s); the split song went on from \(after.heardSeconds) s, not at or after \(lowest) s")
    }

    @Test("through the player, a song split while its output plays on in real time takes over ahead, on time: nothing heard twice or skipped")
    func thePlayersSplitIsOnTime() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("pulses.mid")
        try Data(SMFWriter().encode(SplitTakeoverTests.pulses(count: 16).file)).write(to: URL(fileURLWithPath: path))
        let (player, sink) = try SeekHandoverTests.player(playing: [FilePath(path)], chaseNotes: true, split: .whenNeeded(cores: 2))
        sink.record(frames: Int(0.3 * SplitTakeoverTests.rate))
        // The output goes on in real time (a buffer of 300 frames every 6.8 ms) while the part
        // synthesizer is made, the song probed and the switch planned.
        let stop = LiveSplitTests.Flag()
        let stopped = LiveSplitTests.Flag()
        Thread.detachNewThread {
            let pace = ContinuousClock.now
            var pulled = 0
            while !stop.isSet {
                sink.record(frames: SplitTakeoverTests.bufferFrames)
                pulled += SplitTakeoverTests.bufferFrames
                let due = pace + .microseconds(Int64(Double(pulled) / SplitTakeoverTests.rate * 1e6))
                if due > ContinuousClock.now { Thread.sleep(forTimeInterval: (due - ContinuousClock.now) / .seconds(1)) }
            }
            stopped.set()
        }
        player.splitIfOverloaded(renderLoad: Player.overloadedRenderLoad, underrunsSinceLastLook: 0)
        #expect(player.update().cores == 2)
        Thread.sleep(forTimeInterval: 0.8)
        stop.set()
        while !stopped.isSet { usleep(1_000) }
        sink.record(frames: Int(4 * SplitTakeoverTests.rate) - sink.recorded.count / 2)
        let heard = SplitTakeoverTests.onsets(sink.recorded, steps: 1..<16)
        let due = (1..<16).map { Int(Double($0) * SplitTakeoverTests.noteSpacing * SplitTakeoverTests.rate) }
        // As the engine alone plays them: from the frame due to FluidSynth's next block of 64 and
        // the attack's first samples.
        #expect(
            zip(heard, due).allSatisfy { $0 >= $1 && $0 < $1 + 200 },
            "the notes start at \(zip(heard, due).map { $0 - $1 }) frames from where they are due")
    }
}
