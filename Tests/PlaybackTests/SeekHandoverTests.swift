import Foundation
import SMF
import Synthesis
import SystemPackage
import Testing

@testable import Playback

/// Seeks are planned on the interface's thread and followed on the audio thread: the engine
/// follows a plan only in the song it was made for, and says which seeks it is done with, so that
/// the interface, not the audio thread, lets go of their plans.
@Suite struct SeekHandoverTests {
    static let rate = 44_100.0

    static func synthesizer() throws -> Synthesizer {
        try Synthesizer(
            settings: SynthesizerSettings(sampleRate: rate, gain: 0.5, reverb: nil, chorus: nil),
            soundFontPath: TestSoundFont.required())
    }

    /// An engine playing a 1.1 s song, 512 frames in.
    static func engine(playingGeneration generation: Int) throws -> (PlaybackEngine, Sequencer) {
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: false)
        let sequencer = Sequencer(song: TestSongs.stringsNote, synthesizer: try synthesizer())
        engine.post(.load(PlayingSong(sequencer), generation: generation, fadeOut: false))
        render(engine, frames: 512)
        return (engine, sequencer)
    }

    static func render(_ engine: PlaybackEngine, frames: Int) {
        var buffer = [Float](repeating: 0, count: 2 * frames)
        buffer.withUnsafeMutableBufferPointer { engine.render($0.baseAddress!, frames: frames) }
    }

    @Test("a plan is followed in its own song only; every seek, followed, dropped or cut off, is reported done")
    func engineFollowsPlansAndReportsThem() throws {
        let (engine, sequencer) = try Self.engine(playingGeneration: 3)
        #expect(engine.state.followedSeek == -1)

        engine.post(.seek(sequencer.plan(seekingTo: 22_050), generation: 3, number: 0, fadeOut: false))
        Self.render(engine, frames: 512)
        #expect(engine.position.frame == 22_050 + 512)
        #expect(engine.state.followedSeek == 0)

        // Planned for a song no longer playing: dropped.
        engine.post(.seek(sequencer.plan(seekingTo: 100), generation: 2, number: 1, fadeOut: false))
        Self.render(engine, frames: 512)
        #expect(engine.position.frame == 22_050 + 1024)
        #expect(engine.state.followedSeek == 1)

        // A faded seek is done only once the fade has ended and it has been followed.
        engine.post(.seek(sequencer.plan(seekingTo: 30_000), generation: 3, number: 2, fadeOut: true))
        Self.render(engine, frames: PlaybackEngine.fadeFrames / 2)
        #expect(engine.state.followedSeek == 1)
        Self.render(engine, frames: PlaybackEngine.fadeFrames)
        #expect(engine.state.followedSeek == 2)
        #expect(engine.position.frame == 30_000 + Int64(PlaybackEngine.fadeFrames / 2))

        // Stopping drops a seek waiting for its fade.
        engine.post(.seek(sequencer.plan(seekingTo: 100), generation: 3, number: 3, fadeOut: true))
        Self.render(engine, frames: 64)
        engine.post(.releaseAll)
        Self.render(engine, frames: 64)
        #expect(engine.state.followedSeek == 3)
    }

    @Test("an unfaded seek posted while a faded one waits goes after it, not before")
    func seeksApplyInOrder() throws {
        let (engine, sequencer) = try Self.engine(playingGeneration: 0)
        engine.post(.seek(sequencer.plan(seekingTo: 10_000), generation: 0, number: 0, fadeOut: true))
        Self.render(engine, frames: 64)
        engine.post(.seek(sequencer.plan(seekingTo: 40_000), generation: 0, number: 1, fadeOut: false))
        Self.render(engine, frames: 512)
        #expect(engine.state.followedSeek == 1)
        #expect(engine.position.frame == 40_000 + 512)
    }

    /// A sink that renders only when the test asks it to, on the test's thread (or on one thread
    /// of the test's: the render closure is the engine's, made to run beside the player's).
    final class ManualSink: PlaybackSink, @unchecked Sendable {
        let renderBuffer: (UnsafeMutablePointer<Float>, Int) -> Void
        /// What `record(frames:)` rendered, one buffer after another. Touched by one thread at a
        /// time: the one that records, then the test's once it has stopped.
        var recorded: [Float] = []

        let latencySeconds: Double

        init(latencySeconds: Double = 0.02, render: @escaping (UnsafeMutablePointer<Float>, Int) -> Void) {
            self.latencySeconds = latencySeconds
            renderBuffer = render
        }

        func pull(seconds: Double) {
            let frames = Int(seconds * SeekHandoverTests.rate)
            var buffer = [Float](repeating: 0, count: 2 * 1024)
            for start in stride(from: 0, to: frames, by: 1024) {
                buffer.withUnsafeMutableBufferPointer { renderBuffer($0.baseAddress!, min(1024, frames - start)) }
            }
        }

        /// Pulls `seconds` through `player`, a 441-frame buffer at a time (10 ms), looking at it
        /// after each, as a play session does.
        func play(_ player: Player, seconds: Double) {
            for _ in 0..<Int(seconds * SeekHandoverTests.rate / 441) {
                record(frames: 441)
                _ = player.update()
            }
        }

        /// Renders `frames` in one buffer, as a sound server asks, and keeps them.
        func record(frames: Int) {
            var buffer = [Float](repeating: 0, count: 2 * frames)
            buffer.withUnsafeMutableBufferPointer { renderBuffer($0.baseAddress!, frames) }
            recorded += buffer
        }

        func pause() {}
        func resume() {}
        func flush(_ switchSource: () -> Void) { switchSource() }
        func drain(atMostSeconds seconds: Double) {}
        func close() {}
        var underrunCount: Int { 0 }
        var normalPriorityReason: String? { nil }
        var failure: (any Error)? { nil }
    }

    /// A player whose output (`latencySeconds` long) renders only when the test pulls it,
    /// playing `song`, written to a file, its loop played as `loops` asks.
    static func player(playing song: Song, latencySeconds: Double, loops: LoopSettings = .asWritten) throws -> (Player, ManualSink) {
        let folder = try TemporaryFolder()
        let path = folder.file("song.mid")
        try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
        return try player(playing: [FilePath(path)], latencySeconds: latencySeconds, loops: loops)
    }

    /// A player whose output (`latencySeconds` long) renders only when the test pulls it, playing
    /// the queue of `files` from `seconds` into its first.
    static func player(
        playing files: [FilePath], atSeconds seconds: Double = 0, latencySeconds: Double = 0.02, chaseNotes: Bool = false,
        loops: LoopSettings = .asWritten,
        split: SongSplit = .always(cores: 1), songSettings: Player.SongSettingsSource? = nil, loudness: PlaybackLoudness? = nil,
        onProblem: @escaping (String) -> Void = { Issue.record("\($0)") }
    ) throws -> (Player, ManualSink) {
        var made: ManualSink?
        let player = try Player(
            chaseNotes: chaseNotes, tailLimitSeconds: 1, sampleRate: rate, loops: loops, split: split, songSettings: songSettings,
            loudness: loudness,
            makeSink: { render in
                let sink = ManualSink(latencySeconds: latencySeconds, render: render)
                made = sink
                return sink
            },
            makeSynthesizer: synthesizer, onProblem: onProblem)
        let sink = try #require(made)
        #expect(player.play(PlayQueue(files: files), atSeconds: seconds))
        return (player, sink)
    }

    @Test("through the player, a seek with chase notes strikes the note the pedal holds there")
    func playerChasesSustainedNotes() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("pedal.mid")
        // Pedal down, a note from 0 to 1 s, pedal up at 10 s.
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 19), atTick: 0)
            track.append(.controlChange(channel: 0, controller: 64, value: 127), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: TestSongs.tick(1))
            track.append(.controlChange(channel: 0, controller: 64, value: 0), atTick: TestSongs.tick(10))
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(12))
        }
        try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
        var sink: ManualSink?
        let player = try Player(
            chaseNotes: true, tailLimitSeconds: 1, sampleRate: Self.rate,
            makeSink: { render in
                let made = ManualSink(render: render)
                sink = made
                return made
            },
            makeSynthesizer: Self.synthesizer, onProblem: { Issue.record("\($0)") })
        #expect(player.play(PlayQueue(files: [FilePath(path)]), atSeconds: 5))
        // Each look at the keys shows once the output has played what was rendered by then.
        func heard() -> PlayerSnapshot {
            sink?.pull(seconds: 0.1)
            _ = player.update()
            sink?.pull(seconds: 0.05)
            return player.update()
        }
        let snapshot = heard()
        #expect(abs(snapshot.heardSeconds - 5.13) < 0.05)
        #expect(snapshot.pressedKeys[60] == 1)
        // Seeking on, back into the note, and past the pedal.
        player.seek(toSeconds: 0.5)
        #expect(heard().pressedKeys[60] == 1)
        player.seek(toSeconds: 11)
        #expect(heard().pressedKeys[60] == 0)
    }
}
