import Foundation
import Loudness
import SMF
import Synchronization
import SystemPackage
import Testing

@testable import Playback

/// The library index, where songs' loudness is kept, opens once the first sound is out, never before
/// it: a song prepared before it is open starts as it sounds and moves to its gain once it is.
struct LoudnessMemoryOpenedLateTests {
    /// Knows every song: each at −30 LUFS at a synthesizer gain of 1.
    final class KnowsEverySong: LoudnessMemory {
        func loudness(of key: SongSoundKey) -> Loudness? { Loudness(integratedLUFS: -30, seconds: 10) }
        func remember(_ loudness: Loudness, of key: SongSoundKey) {}
    }

    @Test("the player starts without waiting for the memory, which opens once the first sound is out; the song playing then gets its gain")
    func firstSoundDoesNotWait() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.mid")
        try Data(SMFWriter().encode(PerformanceRenderTests.Piece(loopMark: 2).file)).write(to: URL(fileURLWithPath: path))
        // The memory opens only when the test lets it: a player that waited for it would wait
        // the full 10 s, and find it opened unasked.
        let letOpen = DispatchSemaphore(value: 0)
        let openedUnasked = Atomic(false)
        let loudness = PlaybackLoudness(
            target: LoudnessTarget(referenceGain: 0.16),
            openMemory: { _ in
                if letOpen.wait(timeout: .now() + 10) == .timedOut { openedUnasked.store(true, ordering: .relaxed) }
                return KnowsEverySong()
            })
        let (player, sink) = try SeekHandoverTests.player(playing: [FilePath(path)], loudness: loudness)
        sink.play(player, seconds: 0.1)
        let waited = openedUnasked.load(ordering: .relaxed)
        #expect(!waited, "the player waited for the memory before it played")
        let before = player.update().loudness
        #expect(before?.integratedLUFS == nil, "known before the memory was open: \(String(describing: before))")
        letOpen.signal()
        let deadline = Date().addingTimeInterval(10)
        while player.update().loudness?.integratedLUFS == nil, Date() < deadline {
            usleep(10_000)
            sink.play(player, seconds: 0.01)
        }
        let after = try #require(player.update().loudness, "no loudness once the memory opened")
        // −30 LUFS at gain 1 is −30 + 20 log10(0.16) = −45.9 at the reference gain: 27.9 dB to −18.
        #expect(after.integratedLUFS != nil && abs(after.gainDecibels - 27.92) < 0.01, "\(after)")
    }
}
