import Foundation
import SMF
import Synthesis
import SystemPackage
import TestSupport
import Testing

@testable import Playback

/// What the player says when `--loops` asks to repeat songs it cannot: a song whose marks make no
/// loop each time, songs without marks once.
@Suite struct LoopWarningTests {
    @Test("three songs without loop marks played with --loops 2: said once; a song whose marks make no loop: said for it")
    func unmarkedSongsAreSaidOnce() throws {
        let folder = try TemporaryFolder()
        let plain = TestSongs.song { track in
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
        }
        let badMarks = TestSongs.song { track in
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(.meta(.text(.marker, Array("loopEnd".utf8))), atTick: 240)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
        }
        var paths: [FilePath] = []
        for (index, song) in [plain, plain, badMarks, plain].enumerated() {
            let path = folder.file("song\(index).mid")
            try Data(SMFWriter().encode(song.file)).write(to: URL(fileURLWithPath: path))
            paths.append(FilePath(path))
        }
        var problems: [String] = []
        let player = try Player(
            chaseNotes: false, tailLimitSeconds: 1, sampleRate: SeekHandoverTests.rate,
            loops: LoopSettings(passes: 3, fadeSeconds: 0),
            makeSink: { render in SeekHandoverTests.ManualSink(latencySeconds: 0.05, render: render) },
            makeSynthesizer: SeekHandoverTests.synthesizer, onProblem: { problems.append($0) })
        #expect(player.play(PlayQueue(files: paths)))
        for _ in paths {
            _ = player.update()
            player.next()
        }
        player.close()
        #expect(
            problems.filter { $0.contains(SongLoop.noMarks) } == ["\(paths[0].text): \(SongLoop.noMarks) (said once for every song without them)"],
            "\(problems)")
        #expect(problems.contains { $0.hasPrefix("\(paths[2].text): it has a loopEnd marker") }, "\(problems)")
    }
}
