import SMF
import Synthesis
import Testing

@testable import Playback

/// The player says which pass through a song's loop is heard, and how many there are: what the
/// play view's `loop 2/3` and `loop 4/∞` show.
@Suite struct LoopCountTests {
    /// The piece's loop runs from 1.25 s to 2.25 s; played 2.5 s, it is in its second pass.
    static func snapshotAfterTheLoopsEnd(loops: LoopSettings) throws -> PlayerSnapshot {
        let song = Song(file: PerformanceRenderTests.Piece(markers: (4, 8)).file)
        let (player, sink) = try SeekHandoverTests.player(playing: song, latencySeconds: 0.05, loops: loops)
        sink.pull(seconds: 2.5)
        return player.update()
    }

    @Test("a loop played for ever: pass 2 of no count (∞), not 1 of 1")
    func aLoopForEverHasNoCount() throws {
        let snapshot = try Self.snapshotAfterTheLoopsEnd(loops: LoopSettings(passes: nil, fadeSeconds: 0))
        #expect(snapshot.passCount == nil && snapshot.pass == 2, "pass \(snapshot.pass) of \(snapshot.passCount.map(String.init) ?? "∞")")
    }

    @Test("a loop played 3 times: pass 2 of 3; as written: pass 1 of 1")
    func aCountedLoop() throws {
        let counted = try Self.snapshotAfterTheLoopsEnd(loops: LoopSettings(passes: 3, fadeSeconds: 0))
        #expect(counted.passCount == 3 && counted.pass == 2, "pass \(counted.pass) of \(counted.passCount.map(String.init) ?? "∞")")
        let asWritten = try Self.snapshotAfterTheLoopsEnd(loops: .asWritten)
        #expect(asWritten.passCount == 1 && asWritten.pass == 1)
    }
}
