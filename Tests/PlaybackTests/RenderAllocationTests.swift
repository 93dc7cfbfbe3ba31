import AllocationCounter
import Foundation
import Loudness
import SMF
import Synthesis
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// The audio thread neither allocates nor frees memory (the allocator takes a lock, and may take
/// long): the process's allocator counts its calls on threads marked as audio threads (the engine's
/// render and the live part threads) while a player plays songs through a test sink, with seeks
/// faded and flushed, a loop going round, a split, mutes, a solo, transposition and tempo, a pause
/// and the next song. Runs with the real-time suites (alone): another test's audio thread could
/// be counted.
@Suite(.serialized) struct RenderAllocationTests {
    /// Calls to the allocator made on audio threads while `body` runs.
    static func allocations(_ body: () throws -> Void) rethrows -> Int {
        allocation_counter_start(AudioThread.key)
        defer { _ = allocation_counter_stop() }
        try body()
        return allocation_counter_stop()
    }

    @Test("the engine's render allocates and frees nothing, through seeks, loops, a split, mutes, transposition, a pause and the next song")
    func renderDoesNotAllocate() throws {
        let folder = try TemporaryFolder()
        var files: [FilePath] = []
        for (index, piece) in [PerformanceRenderTests.Piece(loopMark: 4), PerformanceRenderTests.Piece(loopMark: 2)].enumerated() {
            let path = folder.file("song\(index).mid")
            try Data(SMFWriter().encode(piece.file)).write(to: URL(fileURLWithPath: path))
            files.append(FilePath(path))
        }
        let (player, sink) = try SeekHandoverTests.player(
            playing: files, chaseNotes: true, loops: LoopSettings(passes: 2, fadeSeconds: 1),
            split: .whenNeeded(cores: 2))
        // Every voice and preset the songs use sounds once before the count (FluidSynth's first
        // note of a preset is not what this checks).
        sink.play(player, seconds: 1)
        let counted = Self.allocations {
            player.seek(toSeconds: 2.5)
            sink.play(player, seconds: 0.3)
            player.performance.transpose = 3
            player.performance.tempo = 1.25
            sink.play(player, seconds: 0.3)
            player.splitIfOverloaded(renderLoad: Player.overloadedRenderLoad, underrunsSinceLastLook: 0)
            sink.play(player, seconds: 0.5)
            player.performance.muted = ChannelSet(bits: 0b10)
            sink.play(player, seconds: 0.3)
            player.performance.soloed = ChannelSet(bits: 0b1)
            player.seek(bySeconds: -1)
            sink.play(player, seconds: 0.3)
            player.togglePause()
            sink.play(player, seconds: 0.1)
            player.togglePause()
            sink.play(player, seconds: 0.3)
            player.performance = Performance()
            player.seek(toSeconds: 3.5)
            // Round the loop, its fade, and on into the next song.
            sink.play(player, seconds: 8)
        }
        let snapshot = player.update()
        #expect(snapshot.cores == 2, "the song was not split: the test did not cover a split")
        #expect(snapshot.place == 1, "the next song did not start: the test did not cover the hand-over to it")
        #expect(counted == 0, "the audio threads called the allocator \(counted) times")
    }

    @Test(
        "songs with their own sound banks (an RMID file's SF2 and DLS), split across two synthesizers, follow one another, and a plain song follows them, without the audio threads allocating: each bank is loaded before its song's turn"
    )
    func songBanksAreLoadedOffTheAudioThread() throws {
        let folder = try TemporaryFolder()
        let banks: [(TestSoundBank.Format, TestWaveform)?] = [nil, (.soundFont2, .square), (.downloadableSounds, .sawtooth), nil]
        var files: [FilePath] = []
        for (index, bank) in banks.enumerated() {
            // Two held notes a second long, on a program the bank has (at the default offset, 1).
            let song = TestSongs.song { track in
                track.append(.controlChange(channel: 0, controller: 0, value: 1), atTick: 0)
                track.append(.programChange(channel: 0, program: 0), atTick: 0)
                track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
                track.append(.noteOn(channel: 9, note: 36, velocity: 100), atTick: 0)
                track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: TestSongs.tick(1))
                track.append(.noteOff(channel: 9, note: 36, velocity: 0), atTick: TestSongs.tick(1))
                track.append(.meta(.endOfTrack), atTick: TestSongs.tick(1))
            }
            let bytes = SMFWriter().encode(song.file)
            let path = folder.file("song\(index).\(bank == nil ? "mid" : "rmi")")
            if let (format, waveform) = bank {
                let soundBank = TestSoundBank(presets: [.init("Bank wave", program: 0, waveform: waveform), .drumKit("Bank kit")])
                try Data(RMIDWriter().encode(song: bytes, soundBank: try soundBank.bytes(format))).write(to: URL(fileURLWithPath: path))
            } else {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            files.append(FilePath(path))
        }
        // Split across two synthesizers: a song with its own bank has part synthesizers of its own.
        let (player, sink) = try SeekHandoverTests.player(playing: files, split: .always(cores: 2))
        sink.play(player, seconds: 0.5)
        // From the first song's middle, through the banks' songs, to the plain one after them.
        let counted = Self.allocations { sink.play(player, seconds: 6) }
        #expect(player.update().place == 3, "the last song did not start: the test did not cover every hand-over")
        #expect(counted == 0, "the audio threads called the allocator \(counted) times")
    }

    @Test(
        "songs brought to a loudness, split: the one playing ramps to its gain once measured in the background, the next starts at its own, without the audio threads allocating"
    )
    func loudnessGainsDoNotAllocate() throws {
        let folder = try TemporaryFolder()
        var files: [FilePath] = []
        for index in 0..<2 {
            let path = folder.file("song\(index).mid")
            try Data(SMFWriter().encode(PerformanceRenderTests.Piece(loopMark: 2).file)).write(to: URL(fileURLWithPath: path))
            files.append(FilePath(path))
        }
        let memory = LoudnessMemoryInTests()
        let loudness = PlaybackLoudness(target: LoudnessTarget(referenceGain: 0.16), openMemory: { _ in memory })
        let (player, sink) = try SeekHandoverTests.player(playing: files, split: .always(cores: 2), loudness: loudness)
        sink.play(player, seconds: 0.2)
        // The first song's measurement arrives (on the background thread): the engine is told to ramp.
        let deadline = Date().addingTimeInterval(30)
        while player.update().loudness?.integratedLUFS == nil, Date() < deadline { usleep(10_000) }
        #expect(player.update().loudness?.integratedLUFS != nil, "the song was not measured: the test did not cover a ramp")
        let counted = Self.allocations { sink.play(player, seconds: 5) }
        #expect(counted == 0, "the audio threads called the allocator \(counted) times")
    }

    @Test("the count can fail: an array made on a thread marked as the audio thread is counted")
    func anAllocationOnTheAudioThreadIsCounted() {
        let counted = Self.allocations {
            let mark = AudioThread.Mark()
            let made = [Int](repeating: 7, count: 1_000)
            mark.remove()
            #expect(made.count == 1_000)
        }
        #expect(counted >= 1, "an array made on the audio thread: \(counted) calls counted")
    }
}
