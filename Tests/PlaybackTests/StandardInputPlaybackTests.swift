import Foundation
import SMF
import Synthesis
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// The song from standard input in the player's queue: the command reads it and hands it over
/// (`Player.preloadedSongs`), and the player names it "standard input".
@Suite struct StandardInputPlaybackTests {
    static func player(loops: LoopSettings, onProblem: @escaping (String) -> Void) throws -> (Player, SeekHandoverTests.ManualSink) {
        var made: SeekHandoverTests.ManualSink?
        let player = try Player(
            chaseNotes: false, tailLimitSeconds: 1, sampleRate: SeekHandoverTests.rate, loops: loops,
            makeSink: { render in
                let sink = SeekHandoverTests.ManualSink(latencySeconds: 0.05, render: render)
                made = sink
                return sink
            },
            makeSynthesizer: SeekHandoverTests.synthesizer, onProblem: onProblem)
        return (player, try #require(made))
    }

    @Test("the song handed over plays, the snapshot says standard input, and so do the player's messages")
    func playsTheSongHandedOver() throws {
        var problems: [String] = []
        let (player, sink) = try Self.player(loops: LoopSettings(passes: 2, fadeSeconds: 0)) { problems.append($0) }
        player.preloadedSongs[.standardInput] = TestSongs.stringsNote
        #expect(player.play(PlayQueue(items: [.standardInput])))
        sink.pull(seconds: 0.2)
        let snapshot = player.update()
        #expect(snapshot.item == .standardInput && snapshot.durationSeconds == TestSongs.stringsNote.duration && snapshot.heardSeconds > 0)
        #expect(problems == ["standard input: \(SongLoop.noMarks) (said once for every song without them)"])
        player.close()
    }

    @Test("standard input queued without its song: said, and skipped for the file after it")
    func standardInputWithoutItsSongIsSkipped() throws {
        let folder = try TemporaryFolder()
        let path = FilePath(folder.file("song.mid"))
        try Data(SMFWriter().encode(TestSongs.stringsNote.file)).write(to: URL(fileURLWithPath: path.string))
        var problems: [String] = []
        let (player, sink) = try Self.player(loops: .asWritten) { problems.append($0) }
        #expect(player.play(PlayQueue(items: [.standardInput, .file(path)])))
        sink.pull(seconds: 0.2)
        #expect(player.update().item == .file(path))
        #expect(player.queue.items == [.file(path)])
        #expect(problems == ["standard input: no song was read from it"])
        player.close()
    }
}
