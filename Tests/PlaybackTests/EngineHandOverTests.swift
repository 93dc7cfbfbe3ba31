import Foundation
import SMF
import Synchronization
import Synthesis
import Testing

@testable import Playback

/// Songs and seek plans reach the audio thread through the command ring and come back through the
/// ring of retired objects: whatever the interface asks (loads, songs queued and dropped, seeks
/// faded or not, a split, a stop), each one is freed on the interface's thread, and every one
/// comes back.
/// Serialized: the control test frees a song on a marked thread, which the count of the first would see.
@Suite(.serialized) struct EngineHandOverTests {
    /// An audio thread: renders the engine in 256-frame buffers, as a sink does, until stopped.
    final class AudioLoop: @unchecked Sendable {
        // @unchecked: its state is an atomic and a semaphore.
        private let isDone = Atomic(false)
        private let finished = DispatchSemaphore(value: 0)

        init(_ engine: PlaybackEngine) {
            Thread { [self] in
                var buffer = [Float](repeating: 0, count: 512)
                while !isDone.load(ordering: .acquiring) {
                    buffer.withUnsafeMutableBufferPointer { engine.render($0.baseAddress!, frames: 256) }
                }
                finished.signal()
            }.start()
        }

        func stop() {
            isDone.store(true, ordering: .releasing)
            finished.wait()
        }
    }

    /// Hands the engine a new song (kept by nobody else: the engine's reference is the last).
    static func load(_ engine: PlaybackEngine, _ song: Song, synthesizer: Synthesizer, generation: Int, fadeOut: Bool) {
        engine.post(.load(PlayingSong(Sequencer(song: song, synthesizer: synthesizer)), generation: generation, fadeOut: fadeOut))
    }

    @Test("under loads, queued and dropped songs, seeks, a split and stops, no song is freed on the audio thread, and every song and plan comes back")
    func everythingComesBackToTheInterface() throws {
        let rig = try LiveSplitTests.Rig(cores: 2)
        let engine = PlaybackEngine(tailLimitSeconds: 0.2, sampleRate: LiveSplitTests.rate, limitsPeaks: true)
        let freedBefore = AudioThread.songsFreed.load(ordering: .relaxed)
        let audio = AudioLoop(engine)
        var seekNumber = 0
        for round in 0..<40 {
            let generation = 3 * round
            // The test keeps the sequencer, to plan seeks on it, not the song: the engine's reference to that is the last.
            let playing = Sequencer(song: TestSongs.melody, synthesizer: rig.lead)
            engine.post(.load(PlayingSong(playing), generation: generation, fadeOut: round % 2 == 0))
            engine.post(.queueNext(PlayingSong(Sequencer(song: TestSongs.melody, synthesizer: rig.lead)), generation: generation + 1))
            if round % 3 == 0 { engine.post(.dropNext) }
            for target: Int64 in [10_000, 30_000, 20_000] {
                engine.post(.seek(playing.plan(seekingTo: target), generation: generation, number: seekNumber, fadeOut: target != 30_000))
                seekNumber += 1
            }
            if round % 4 == 1 {
                // A split of a song playing, planned ahead of it, waiting when the next command comes.
                let whole = Sequencer(song: TestSongs.melody, synthesizer: rig.lead)
                engine.post(.load(PlayingSong(whole), generation: generation + 2, fadeOut: false))
                engine.post(
                    .replace(
                        rig.split(whole), plan: whole.plan(seekingTo: 40_000, chaseNotes: true), generation: generation + 2,
                        number: seekNumber, fadeOut: true))
                seekNumber += 1
            }
            if round % 5 == 4 { engine.post(.releaseAll) }
            Thread.sleep(forTimeInterval: 0.003)
            engine.collectRetired()
        }
        Self.load(engine, TestSongs.melody, synthesizer: rig.lead, generation: 1_000, fadeOut: false)
        // Until the audio thread has taken the last load and given back everything before it.
        let deadline = Date() + 10
        while engine.position.generation != 1_000 || engine.handedObjects > 1, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
            engine.collectRetired()
        }
        audio.stop()
        #expect(AudioThread.songsFreed.load(ordering: .relaxed) == freedBefore, "songs were freed on the audio thread")
        #expect(engine.handedObjects == 1, "the song playing is all the engine holds: the others did not all come back")
    }

    @Test("the check can fail: a song let go of on a thread marked as the audio thread is counted")
    func aSongFreedOnTheAudioThreadIsCounted() throws {
        let synthesizer = try SeekHandoverTests.synthesizer()
        let before = AudioThread.songsFreed.load(ordering: .relaxed)
        var song: PlayingSong? = PlayingSong(Sequencer(song: TestSongs.melody, synthesizer: synthesizer))
        let mark = AudioThread.Mark()
        song = nil
        mark.remove()
        #expect(song == nil)
        #expect(AudioThread.songsFreed.load(ordering: .relaxed) > before)
    }

    @Test("commands posted while the audio thread renders nothing wait, in order, and are all taken once it renders again")
    func commandsBeyondTheRingWait() throws {
        let synthesizer = try SeekHandoverTests.synthesizer()
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: SeekHandoverTests.rate, limitsPeaks: false)
        let count = PlaybackEngine.commandCapacity * 3
        for generation in 0..<count {
            Self.load(engine, TestSongs.stringsNote, synthesizer: synthesizer, generation: generation, fadeOut: false)
        }
        #expect(engine.handedObjects == PlaybackEngine.commandCapacity)
        for _ in 0..<3 {
            SeekHandoverTests.render(engine, frames: 64)
            engine.collectRetired()
        }
        #expect(engine.position.generation == count - 1)
        #expect(engine.handedObjects == 1)
    }
}
