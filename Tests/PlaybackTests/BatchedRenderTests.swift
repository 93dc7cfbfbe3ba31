import Foundation
@testable import Playback
import SMF
import Synthesis
import SystemPackage
import Testing

/// The engine renders three of the output's requests at a time while its load is light
/// (``PlaybackEngine/renderInBatches(of:)``): what comes out is the same, frame for frame; a cut
/// the interface flushes the output for drops what was rendered ahead; the interface counts what
/// is rendered ahead as latency.
@Suite struct BatchedRenderTests {
    static let rate = 44_100.0
    /// About what PulseAudio asks for at a time with a 50 ms buffer (551 frames, a quarter of
    /// it), made a multiple of 64: after a seek the synthesizers of both engines compared, which
    /// have rendered a whole number of requests more or less, then start FluidSynth's 64-frame
    /// blocks at the same frame.
    static let request = 512
    static let batchFrames = 3 * request

    static func engine(batched: Bool) throws -> (PlaybackEngine, Sequencer) {
        let synthesizer = try Synthesizer(settings: DefaultRender.settings(), soundFontPath: TestSoundFont.required())
        let sequencer = Sequencer(song: TestSongs.melody, synthesizer: synthesizer)
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: true)
        if batched { engine.renderInBatches(of: batchFrames) }
        engine.post(.load(PlayingSong(sequencer), generation: 0, fadeOut: false))
        return (engine, sequencer)
    }

    /// Pulls `seconds` more of the engine's output, a request at a time; returns the most it had
    /// rendered ahead after a request.
    @discardableResult
    static func pull(_ engine: PlaybackEngine, seconds: Double, into output: inout [Float]) -> Int {
        var buffer = [Float](repeating: 0, count: 2 * request)
        var mostAhead = 0
        for _ in 0..<Int(seconds * rate) / request {
            buffer.withUnsafeMutableBufferPointer { engine.render($0.baseAddress!, frames: request) }
            output += buffer
            mostAhead = max(mostAhead, engine.bufferedFrames)
        }
        return mostAhead
    }

    @Test("in batches of three requests, once the load is known to be light, the output is the same, frame for frame")
    func batchesSoundTheSame() throws {
        let (single, _) = try Self.engine(batched: false)
        let (batched, _) = try Self.engine(batched: true)
        var one: [Float] = []
        var other: [Float] = []
        let lookAhead = PeakLimiter(sampleRate: Self.rate).latencyFrames
        #expect(Self.pull(single, seconds: 2, into: &one) == lookAhead)
        let ahead = Self.pull(batched, seconds: 2, into: &other)
        #expect(ahead == Self.batchFrames - Self.request + lookAhead, "rendered ahead: \(ahead) frames at most")
        #expect(batched.renderLoad < PlaybackEngine.batchingRenderLoad)
        #expect(one.count == other.count && one == other, "the batched output differs")
    }

    @Test("a flushed seek drops what was rendered ahead: the song goes on from the seek's place at once")
    func aFlushedSeekDropsTheBatch() throws {
        // Claves every quarter second, no reverb: 0.2 s after one, nothing sounds but its last
        // trace, and what was rendered ahead holds the next one.
        func play(batched: Bool, seeks: Bool = true) throws -> [Float] {
            var settings = DefaultRender.settings()
            settings.reverb = nil
            settings.chorus = nil
            let sequencer = Sequencer(song: SplitTakeoverTests.pulses, synthesizer: try Synthesizer(settings: settings, soundFontPath: TestSoundFont.required()))
            let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: Self.rate, limitsPeaks: true)
            if batched { engine.renderInBatches(of: Self.batchFrames) }
            engine.post(.load(PlayingSong(sequencer), generation: 0, fadeOut: false))
            var output: [Float] = []
            // 1.2 s, and into a batch: its first request handed out, two left (the claves at 1.25 s among them).
            Self.pull(engine, seconds: 1.2, into: &output)
            while engine.bufferedFrames != Self.batchFrames - Self.request + PeakLimiter(sampleRate: Self.rate).latencyFrames, batched {
                Self.pull(engine, seconds: Double(Self.request) / Self.rate, into: &output)
            }
            output = []
            if seeks { engine.post(.seek(sequencer.plan(seekingTo: Int64(0.3 * Self.rate)), generation: 0, number: 0, fadeOut: false)) }
            Self.pull(engine, seconds: 0.5, into: &output)
            return output
        }
        func difference(_ one: [Float], _ other: [Float]) -> Float { zip(one, other).map { abs($0 - $1) }.max() ?? .infinity }
        let unbatched = try play(batched: false)
        // The claves at 0.5 s come 0.2 s after the seek in both; the old ones' traces differ a little.
        #expect(difference(try play(batched: true), unbatched) < 1e-4, "after a flushed seek, the batched output differs")
        // What was rendered ahead, had it been kept, holds the claves at 1.25 s.
        #expect(difference(try play(batched: true, seeks: false), unbatched) > 0.01, "the test could not fail")
    }

    @Test("nothing is rendered ahead while the load is unknown or heavy")
    func noBatchesUnderLoad() throws {
        let (engine, _) = try Self.engine(batched: true)
        var output: [Float] = []
        // The load is first known after half a second.
        let lookAhead = PeakLimiter(sampleRate: Self.rate).latencyFrames
        #expect(Self.pull(engine, seconds: 0.45, into: &output) == lookAhead)
        engine.renderInBatches(of: 0)
        #expect(Self.pull(engine, seconds: 1, into: &output) == lookAhead)
    }

    @Test("through the player, with a 50 ms output: where the music is heard counts what the engine rendered ahead, and the limiter's look-ahead")
    func thePlayerCountsWhatIsRenderedAhead() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("melody.mid")
        try Data(SMFWriter().encode(TestSongs.melody.file)).write(to: URL(fileURLWithPath: path))
        var made: SeekHandoverTests.ManualSink?
        let player = try Player(chaseNotes: false, tailLimitSeconds: 1, sampleRate: Self.rate,
                                makeSink: { render in
                                    let sink = SeekHandoverTests.ManualSink(latencySeconds: 0.05, render: render)
                                    made = sink
                                    return sink
                                },
                                makeSynthesizer: SeekHandoverTests.synthesizer, onProblem: { Issue.record("\($0)") })
        let sink = try #require(made)
        #expect(player.play(PlayQueue(items: [FilePath(path)])))
        var mostAhead = 0
        var worst = 0.0
        while sink.recorded.count / 2 < Int(1.8 * Self.rate) {
            sink.record(frames: 551)
            let snapshot = player.update()
            let handedOut = Double(sink.recorded.count / 2) / Self.rate
            if handedOut > 0.6 { worst = max(worst, abs(snapshot.heardSeconds - (handedOut - 0.05))) }
            mostAhead = max(mostAhead, Int(((player.outputLatencySeconds - 0.05) * Self.rate).rounded()))
        }
        #expect(mostAhead > 1_000, "the engine rendered at most \(mostAhead) frames ahead: the test could not fail")
        #expect(worst < 0.002, "the music heard was shown up to \(worst) s from where it was")
    }
}
