import Foundation
import SMF
import Synchronization
import Synthesis
import Testing

@testable import Playback

/// The engine's position is one look: the interface never pairs a new song's generation with the
/// end of the song before it (it would take the queue for ended, and stop it a song early).
@Suite struct EnginePositionTests {
    /// A song that ends at once (its End of Track at tick 1, silent), and one that plays for a minute.
    static let instant = TestSongs.song { track in track.append(.meta(.endOfTrack), atTick: 1) }
    static let minute = TestSongs.song { track in
        track.append(.noteOn(channel: 0, note: 60, velocity: 1), atTick: 0)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: TestSongs.tick(60))
    }

    @Test(
        "a song queued after the one playing has ended is started under its generation, never seen ended by a reader polling meanwhile (3,000 times)")
    func aQueuedSongIsNeverSeenEnded() throws {
        let synthesizer = try SeekHandoverTests.synthesizer()
        let engine = PlaybackEngine(tailLimitSeconds: 0, sampleRate: SeekHandoverTests.rate, limitsPeaks: false)
        // Kept alive here: the engine's audio side never frees a song.
        var songs: [PlayingSong] = []
        let mixedLooks = Atomic(0)
        for round in 0..<3_000 {
            let ending = PlayingSong(Sequencer(song: Self.instant, synthesizer: synthesizer))
            let next = PlayingSong(Sequencer(song: Self.minute, synthesizer: synthesizer))
            songs += [ending, next]
            let (first, second) = (2 * round, 2 * round + 1)
            engine.post(.load(ending, generation: first, fadeOut: false))
            for _ in 0..<4 where !engine.position.hasEnded { SeekHandoverTests.render(engine, frames: 64) }
            try #require(engine.position == EnginePosition(frame: engine.position.frame, generation: first, hasEnded: true, pass: 1))
            // The audio thread takes the next song while the interface looks, as it does every frame.
            let reader = Reader(engine: engine, watching: second)
            engine.post(.queueNext(next, generation: second))
            SeekHandoverTests.render(engine, frames: 64)
            mixedLooks.add(reader.finish(), ordering: .relaxed)
            #expect(engine.position.generation == second && !engine.position.hasEnded)
        }
        #expect(mixedLooks.load(ordering: .relaxed) == 0, "the next song was seen ended under its own generation")
        _ = songs
    }
}

/// A thread that looks at the engine's position as fast as it can until told to finish, counting
/// the looks that show `generation` ended.
private final class Reader: @unchecked Sendable {
    private let isDone = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)
    private var mixedLooks = 0

    init(engine: PlaybackEngine, watching generation: Int) {
        let started = DispatchSemaphore(value: 0)
        Thread { [self] in
            started.signal()
            while !isDone.load(ordering: .acquiring) {
                let look = engine.position
                if look.generation == generation, look.hasEnded { mixedLooks += 1 }
            }
            finished.signal()
        }.start()
        started.wait()
    }

    /// Stops the thread; the looks it counted (read after it has stopped).
    func finish() -> Int {
        isDone.store(true, ordering: .releasing)
        finished.wait()
        return mixedLooks
    }
}
