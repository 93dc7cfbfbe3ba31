import Foundation
import SMF
import SoundComparison
import Synchronization
import Synthesis
import SystemPackage
import Testing

@testable import Playback

/// Live play on several cores: the engine renders a song split across synthesizers
/// (``PlayingSong``, ``PartThreads``) buffer by buffer, and it sounds as one synthesizer plays it,
/// through seeks, the listener's changes and a switch from one synthesizer to several mid-song.
/// By sound, at the bounds of ``SplitRenderTests`` (similarity ≥ 0.99, level within 0.5 dB).
@Suite struct LiveSplitTests {
    static let rate = 44_100.0
    /// An odd buffer length, as a sound server asks for: chunks and FluidSynth's 64-frame blocks disagree.
    static let bufferFrames = 300

    /// What the player makes: a lead synthesizer and part synthesizers that share its listener's
    /// changes, and the threads that render them.
    struct Rig {
        let lead: Synthesizer
        let others: [Synthesizer]
        let threads: PartThreads
        let probe: Synthesizer

        init(cores: Int, settings: SynthesizerSettings = DefaultRender.settings()) throws {
            let soundFonts = try SoundFontStack([TestSoundFont.required()])
            let lead = try Synthesizer(settings: settings, soundFonts: soundFonts)
            self.lead = lead
            others = try (1..<cores).map { _ in try Synthesizer(settings: settings, soundFonts: soundFonts, lead: lead) }
            threads = try #require(PartThreads(count: cores - 1))
            var probeSettings = settings
            probeSettings.reverb = nil
            probeSettings.chorus = nil
            probe = try Synthesizer(settings: probeSettings, soundFonts: soundFonts)
        }

        /// The song of `whole` (a sequencer on `lead`) split across the rig's synthesizers.
        func split(_ whole: Sequencer) -> PlayingSong {
            let split = NoteSplit(loads: whole.noteLoads(probe: probe), count: others.count + 1)
            let parts = (0..<split.partCount).map { part in
                Sequencer(partOf: whole, synthesizer: part == 0 ? lead : others[part - 1], part: part, of: split)
            }
            return PlayingSong(whole, parts: parts, threads: threads)
        }
    }

    /// An engine playing `song`, from its start.
    static func engine(playing song: PlayingSong) -> PlaybackEngine {
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: false)
        engine.post(.load(song, generation: 0, fadeOut: false))
        return engine
    }

    /// `seconds` of the engine's output, in buffers of `bufferFrames`.
    static func render(_ engine: PlaybackEngine, seconds: Double) -> [Float] {
        let frames = Int(seconds * rate)
        var output = [Float](repeating: 0, count: 2 * frames)
        output.withUnsafeMutableBufferPointer { all in
            for start in stride(from: 0, to: frames, by: bufferFrames) {
                engine.render(all.baseAddress! + 2 * start, frames: min(bufferFrames, frames - start))
            }
        }
        return output
    }

    static func expectSame(_ split: [Float], _ whole: [Float], _ what: String) {
        let comparison = SoundComparison(candidate: split, reference: whole, sampleRate: rate)
        #expect(comparison.mismatches(SplitRenderTests.sameRendering).isEmpty, "\(what): \(comparison.mismatches(SplitRenderTests.sameRendering))")
    }

    static func differs(_ candidate: [Float], _ reference: [Float]) -> Bool {
        !SoundComparison(candidate: candidate, reference: reference, sampleRate: rate).mismatches(SplitRenderTests.sameRendering).isEmpty
    }

    @Test("a song split across 3 synthesizers, rendered buffer by buffer, sounds as one plays it, effects and all")
    func aSplitSongSoundsTheSameLive() throws {
        let one = try Rig(cores: 1)
        let whole = Self.render(Self.engine(playing: PlayingSong(Sequencer(song: TestSongs.melody, synthesizer: one.lead))), seconds: 2.5)
        let three = try Rig(cores: 3)
        let song = three.split(Sequencer(song: TestSongs.melody, synthesizer: three.lead))
        #expect(song.parts.count == 3)
        Self.expectSame(Self.render(Self.engine(playing: song), seconds: 2.5), whole, "the melody on 3 cores")
    }

    @Test("a seek with chased notes, a tempo and a transposition set on the lead reach every part")
    func seeksAndTheListenersChangesReachEveryPart() throws {
        func play(_ rig: Rig, split: Bool, changes: Bool) -> [Float] {
            let whole = Sequencer(song: TestSongs.melody, synthesizer: rig.lead)
            let engine = Self.engine(playing: split ? rig.split(whole) : PlayingSong(whole))
            var output = Self.render(engine, seconds: 0.3)
            if changes {
                rig.lead.performance.current = Performance(transpose: 3, tempo: 1.25)
                engine.post(.seek(whole.plan(seekingTo: Int64(0.6 * Self.rate), chaseNotes: true), generation: 0, number: 0, fadeOut: false))
            }
            output += Self.render(engine, seconds: 1.7)
            return output
        }
        let split = play(try Rig(cores: 2), split: true, changes: true)
        Self.expectSame(split, play(try Rig(cores: 2), split: false, changes: true), "seek, tempo 125 %, key +3, on 2 cores")
        #expect(Self.differs(split, play(try Rig(cores: 2), split: false, changes: false)), "the changes make no difference: the test could not fail")
    }

    @Test("a song playing on one synthesizer goes on split where it is, as a seek there would go on")
    func aSongGoesOnSplitWhereItIs() throws {
        func play(replacing: Bool) throws -> [Float] {
            let rig = try Rig(cores: 2)
            let whole = Sequencer(song: TestSongs.melody, synthesizer: rig.lead)
            let engine = Self.engine(playing: PlayingSong(whole))
            var output = Self.render(engine, seconds: 0.4)
            let plan = whole.plan(seekingTo: engine.position.frame, chaseNotes: true)
            if replacing {
                let song = rig.split(whole)
                engine.post(.replace(song, plan: plan, generation: 0, number: 0, fadeOut: false))
                output += Self.render(engine, seconds: 1.6)
                #expect(engine.state.followedSeek == 0)
                withExtendedLifetime(song) {}
            } else {
                engine.post(.seek(plan, generation: 0, number: 0, fadeOut: false))
                output += Self.render(engine, seconds: 1.6)
            }
            return output
        }
        Self.expectSame(try play(replacing: true), try play(replacing: false), "split at 0.4 s")
    }

    @Test("a replacement planned for another song is dropped, and reported done")
    func aReplacementForAnotherSongIsDropped() throws {
        let rig = try Rig(cores: 2)
        let whole = Sequencer(song: TestSongs.melody, synthesizer: rig.lead)
        let engine = Self.engine(playing: PlayingSong(whole))
        _ = Self.render(engine, seconds: 0.1)
        let song = rig.split(whole)
        engine.post(.replace(song, plan: whole.plan(seekingTo: 0), generation: 7, number: 4, fadeOut: false))
        _ = Self.render(engine, seconds: 0.1)
        #expect(engine.state.followedSeek == 4)
        #expect(engine.position.frame > Int64(0.19 * Self.rate), "the song went back to the plan's place")
    }

    /// A player whose output renders only when the test pulls it.
    static func player(split: SongSplit) throws -> (Player, SeekHandoverTests.ManualSink) {
        var sink: SeekHandoverTests.ManualSink?
        let player = try Player(
            chaseNotes: false, tailLimitSeconds: 1, sampleRate: rate, split: split,
            makeSink: { render in
                let made = SeekHandoverTests.ManualSink(render: render)
                sink = made
                return made
            },
            makeSynthesizer: SeekHandoverTests.synthesizer, onProblem: { Issue.record("\($0)") })
        return (player, try #require(sink))
    }

    /// Through the player, with every song split: the snapshot says so, and shows every part's
    /// keys (the parts share the lead's keyboard).
    @Test("the player splits every song with .always, and its snapshot shows the keys of every part")
    func thePlayerSplitsAndShowsEveryPartsKeys() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("chord.mid")
        let chord: [UInt8] = [48, 52, 55, 60, 64, 67, 72]
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 19), atTick: 0)
            for key in chord { track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: 0) }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(3))
        }
        try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
        let (player, sink) = try Self.player(split: .always(cores: 2))
        #expect(player.play(PlayQueue(files: [FilePath(path)])))
        sink.pull(seconds: 0.2)
        // A look at the keys, shown once the output has played what was rendered by then.
        _ = player.update()
        sink.pull(seconds: 0.1)
        let snapshot = player.update()
        #expect(snapshot.cores == 2)
        #expect(chord.allSatisfy { snapshot.pressedKeys[Int($0)] == 1 }, "keys shown: \(chord.filter { snapshot.pressedKeys[Int($0)] == 1 })")
    }

    @Test("with .whenNeeded, an overloaded render (or an underrun under strain) splits the song playing and the ones after; a light one does not")
    func thePlayerSplitsWhenOneSynthesizerCannotKeepUp() throws {
        let folder = try TemporaryFolder()
        let paths = ["a.mid", "b.mid"].map { folder.file($0) }
        for path in paths { try Data(SMFWriter().encode(TestSongs.melody.file)).write(to: URL(fileURLWithPath: path)) }
        let (player, sink) = try Self.player(split: .whenNeeded(cores: 2))
        #expect(player.play(PlayQueue(files: paths.map { FilePath($0) })))
        sink.pull(seconds: 0.2)
        player.splitIfOverloaded(renderLoad: Player.overloadedRenderLoad - 0.01, underrunsSinceLastLook: 0)
        player.splitIfOverloaded(renderLoad: Player.strainedRenderLoad - 0.01, underrunsSinceLastLook: 3)
        sink.pull(seconds: 0.2)
        #expect(player.update().cores == 1)
        player.splitIfOverloaded(renderLoad: Player.strainedRenderLoad, underrunsSinceLastLook: 1)
        sink.pull(seconds: 0.2)
        let split = player.update()
        #expect(split.cores == 2)
        #expect(abs(split.heardSeconds - 0.6) < 0.1, "the song went on from \(split.heardSeconds) s")
        sink.pull(seconds: 2.5)
        let next = player.update()
        #expect(next.place == 1 && next.cores == 2, "the next song: place \(next.place), \(next.cores) cores")
    }

    /// Sets a flag from one thread for another to see.
    final class Flag: @unchecked Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }
}
