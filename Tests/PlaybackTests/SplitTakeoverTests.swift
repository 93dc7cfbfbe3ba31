import Foundation
import SMF
import Synchronization
import Synthesis
import SystemPackage
import Testing

@testable import Playback

/// A song split while it plays (``PlaybackEngine/Command/replace``) takes over at the plan's
/// frame, planned ahead of what is heard: the engine plays on until that frame is the next heard,
/// so nothing is heard twice or skipped, limiter and all. Timing is checked by where notes start.
@Suite struct SplitTakeoverTests {
    static let rate = LiveSplitTests.rate
    static let bufferFrames = LiveSplitTests.bufferFrames
    static let noteSpacing = 0.25

    /// Claves and a wood block in turn every quarter second from 0 to 2.25 s, with silence between
    /// them (no reverb, no chorus): where each starts to sound is plain to see.
    static let pulses = pulses(count: 10)

    static func pulses(count: Int) -> Song {
        TestSongs.song { track in
            track.append(.controlChange(channel: 9, controller: 91, value: 0), atTick: 0)
            track.append(.controlChange(channel: 9, controller: 93, value: 0), atTick: 0)
            for step in 0..<count {
                let key: UInt8 = step % 2 == 0 ? 75 : 76
                track.append(.noteOn(channel: 9, note: key, velocity: 120), atTick: TestSongs.tick(Double(step) * noteSpacing))
                track.append(.noteOff(channel: 9, note: key, velocity: 0), atTick: TestSongs.tick(Double(step) * noteSpacing + 0.05))
            }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(Double(count) * noteSpacing + 0.5))
        }
    }

    static func rig() throws -> LiveSplitTests.Rig {
        var settings = DefaultRender.settings()
        settings.reverb = nil
        settings.chorus = nil
        return try LiveSplitTests.Rig(cores: 2, settings: settings)
    }

    /// An engine with the limiter, as the player makes it, playing `song` from its start.
    static func engine(playing song: PlayingSong) -> PlaybackEngine {
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: true)
        engine.post(.load(song, generation: 0, fadeOut: false))
        return engine
    }

    /// The engine's output until `seconds` of output in all, in buffers of `bufferFrames`.
    static func render(_ engine: PlaybackEngine, into output: inout [Float], until seconds: Double) {
        let frames = Int(seconds * rate)
        var buffer = [Float](repeating: 0, count: 2 * bufferFrames)
        while output.count / 2 < frames {
            let count = min(bufferFrames, frames - output.count / 2)
            buffer.withUnsafeMutableBufferPointer { engine.render($0.baseAddress!, frames: count) }
            output += buffer.prefix(2 * count)
        }
    }

    /// The frame where each of the notes `steps` starts to sound: the first above −60 dBFS, from
    /// 2,000 frames (45 ms) before it is due, when the one before has died away.
    static func onsets(_ output: [Float], steps: Range<Int>) -> [Int] {
        steps.map { step in
            let due = Int(Double(step) * noteSpacing * rate)
            return (due - 2_000..<output.count / 2).first { abs(output[2 * $0]) > 1e-3 } ?? -1
        }
    }

    /// The pulses from 0 to 2.5 s, on one synthesizer; with `replaceAt`, a split of the song is
    /// posted at 0.3 s, planned by it from the engine (at the frame it returns).
    static func play(replaceAt planFrame: ((PlaybackEngine) -> Int64)? = nil) throws -> (output: [Float], finishedBefore: Int) {
        let rig = try rig()
        let whole = Sequencer(song: pulses, synthesizer: rig.lead)
        let engine = engine(playing: PlayingSong(whole))
        var output: [Float] = []
        render(engine, into: &output, until: 0.3)
        var finishedBefore = -1
        if let planFrame {
            let song = rig.split(whole)
            let plan = whole.plan(seekingTo: planFrame(engine), chaseNotes: true)
            engine.post(.replace(song, plan: plan, generation: 0, number: 0, fadeOut: true))
            render(engine, into: &output, until: 0.55)
            finishedBefore = engine.state.followedSeek
            render(engine, into: &output, until: 2.5)
            #expect(engine.state.followedSeek == 0)
            withExtendedLifetime(song) {}
        } else {
            render(engine, into: &output, until: 2.5)
        }
        return (output, finishedBefore)
    }

    @Test("a split planned ahead waits for its frame and takes over there: the notes after it start when they did on one synthesizer")
    func aSplitPlannedAheadTakesOverOnTime() throws {
        let reference = try Self.play().output
        let takeover = Int64(0.625 * Self.rate)
        let (split, finishedBefore) = try Self.play(replaceAt: { _ in takeover })
        #expect(finishedBefore == -1, "the split was taken before its frame")
        let expected = Self.onsets(reference, steps: 3..<10)
        #expect(
            zip(expected, (3..<10).map { Int(Double($0) * Self.noteSpacing * Self.rate) }).allSatisfy { $0 >= $1 && $0 < $1 + 200 },
            "the reference's notes start where they are due: \(expected)")
        let heard = Self.onsets(split, steps: 3..<10)
        // Within FluidSynth's block of 64 frames: the split synthesizers' blocks fall elsewhere.
        #expect(zip(heard, expected).allSatisfy { abs($0 - $1) < 64 }, "after the split: \(heard), on one synthesizer: \(expected)")
        // Planned where the engine was a buffer (50 ms) before it took the split, as when it
        // renders one while the interface plans: that buffer is heard again.
        let (repeated, _) = try Self.play(replaceAt: { $0.position.frame - 2_205 })
        let repeatedHeard = Self.onsets(repeated, steps: 3..<10)
        #expect(
            zip(repeatedHeard, expected).allSatisfy { abs($0 - $1) >= 2_000 },
            "a split planned a buffer behind: \(repeatedHeard), on one synthesizer: \(expected): the test could not fail")
    }

    /// The pulses playing on one synthesizer, 0.2 s in, with a split of them posted as number
    /// `number`, planned for 1.5 s: it waits.
    struct WaitingSplit {
        let rig: LiveSplitTests.Rig
        let whole: Sequencer
        let engine: PlaybackEngine
        let song: PlayingSong
        var output: [Float] = []

        init(number: Int) throws {
            rig = try SplitTakeoverTests.rig()
            whole = Sequencer(song: SplitTakeoverTests.pulses, synthesizer: rig.lead)
            engine = SplitTakeoverTests.engine(playing: PlayingSong(whole))
            song = rig.split(whole)
            render(until: 0.2)
            let plan = whole.plan(seekingTo: Int64(1.5 * SplitTakeoverTests.rate), chaseNotes: true)
            engine.post(.replace(song, plan: plan, generation: 0, number: number, fadeOut: true))
        }

        mutating func render(until seconds: Double) {
            SplitTakeoverTests.render(engine, into: &output, until: seconds)
        }
    }

    @Test("a seek while a split waits: the song goes on split from the seek's place, and both are reported done")
    func aSeekWhileASplitWaits() throws {
        var waiting = try WaitingSplit(number: 0)
        let (engine, whole, song) = (waiting.engine, waiting.whole, waiting.song)
        waiting.render(until: 0.4)
        #expect(engine.state.followedSeek == -1)
        #expect(song.parts[1].position == 0, "the split song plays before its frame")
        engine.post(.seek(whole.plan(seekingTo: Int64(0.5 * Self.rate)), generation: 0, number: 1, fadeOut: true))
        waiting.render(until: 0.6)
        #expect(engine.state.followedSeek == 1)
        #expect(song.parts[1].position > Int64(0.5 * Self.rate), "the split song does not play after the seek")
    }

    @Test("while a split waits, a seek for another song is dropped and the split still waits; a new song drops it, and everything comes back")
    func aWaitingSplitIsDroppedByANewSong() throws {
        var waiting = try WaitingSplit(number: 3)
        let (engine, whole, song) = (waiting.engine, waiting.whole, waiting.song)
        engine.post(.seek(whole.plan(seekingTo: 0), generation: 5, number: 4, fadeOut: true))
        waiting.render(until: 0.4)
        #expect(engine.state.followedSeek == 4)
        #expect(song.parts[1].position == 0, "the split song plays before its frame")
        engine.collectRetired()
        // The song playing, the split song and its plan.
        #expect(engine.handedObjects == 3)
        let next = Sequencer(song: Self.pulses, synthesizer: waiting.rig.lead)
        engine.post(.load(PlayingSong(next), generation: 1, fadeOut: true))
        waiting.render(until: 0.5)
        #expect(engine.state.followedSeek == 4)
        #expect(engine.position.generation == 1)
        #expect(song.parts[1].position == 0, "the dropped split song played")
        engine.collectRetired()
        #expect(engine.handedObjects == 1, "the song playing is all the engine holds")
    }

    @Test("a song split in its loop's second pass plays as many passes more as on one synthesizer")
    func aSplitKeepsTheLoopsPass() throws {
        let file = PerformanceRenderTests.Piece(loopMark: 4).file
        func framesToEnd(split: Bool) throws -> Int {
            let rig = try Self.rig()
            let whole = Sequencer(song: Song(file: file), synthesizer: rig.lead, loops: LoopSettings(passes: 2, fadeSeconds: 0))
            let engine = Self.engine(playing: PlayingSong(whole))
            var output: [Float] = []
            while engine.position.pass < 2, output.count < 2 * Int(60 * Self.rate) {
                Self.render(engine, into: &output, until: Double(output.count / 2 + Self.bufferFrames) / Self.rate)
            }
            let song = rig.split(whole)
            if split {
                let plan = whole.plan(seekingTo: engine.position.frame + 4_410, chaseNotes: true)
                engine.post(.replace(song, plan: plan, generation: 0, number: 0, fadeOut: true))
            }
            while !engine.position.hasEnded, output.count < 2 * Int(60 * Self.rate) {
                Self.render(engine, into: &output, until: Double(output.count / 2 + Self.bufferFrames) / Self.rate)
            }
            #expect(!split || song.parts[1].position > 0, "the split song did not play")
            withExtendedLifetime(song) {}
            return output.count / 2
        }
        let whole = try framesToEnd(split: false)
        let split = try framesToEnd(split: true)
        #expect(
            abs(split - whole) < Int(0.1 * Self.rate),
            "split in the second pass, the song ends after \(split) frames; on one synthesizer after \(whole)")
    }
}
