import SMF
import Synthesis
import SystemPackage
import Testing

@testable import Playback
@testable import TerminalUI

/// The play view's time line keeps its progress bar whatever it has to say, and says first what
/// matters most.
@Suite struct TimeLineTests {
    /// 1:00 into a 4:00 song at bar 31, beat 1, 96 bpm.
    static func snapshot(tempo: Double = 1, transpose: Int = 0, pass: Int = 1, passCount: Int? = 1, cores: Int = 1) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot(
            item: .file(FilePath("/music/song.mid")), place: 0, queueLength: 1, heardSeconds: 60, heardTick: 0,
            durationSeconds: 240, isPaused: false, tempoBPM: 96 * tempo, hasEnded: false, underruns: 0,
            pressedKeys: [], noteRange: nil)
        snapshot.performance.tempo = tempo
        snapshot.performance.transpose = transpose
        snapshot.pass = pass
        snapshot.passCount = passCount
        snapshot.barBeat = .init(bar: 31, beat: 1)
        snapshot.cores = cores
        return snapshot
    }

    /// The inside of the line's progress bar, and what follows it.
    static func parts(_ line: String) -> (bar: Substring, facts: Substring)? {
        guard let match = line.firstMatch(of: /^\[([#.]*)\] (.*)$/) else { return nil }
        return (match.1, match.2)
    }

    @Test("as written at 80 columns: the whole line, the bar a quarter full")
    func asWritten() throws {
        let line = TimeLine.line(for: Self.snapshot(), width: 79, showsUnderruns: false)
        let (bar, facts) = try #require(Self.parts(line), "\(line)")
        #expect(facts == "1:00.0 / 4:00.0  bar 31 beat 1  96 bpm")
        #expect(bar.count == 79 - 3 - facts.count && bar.filter { $0 == "#" }.count == bar.count / 4, "\(line)")
    }

    @Test("with the tempo changed, a loop for ever, a key and 2 cores, at 80 and 40 columns: the bar stays, and the loop and tempo come first")
    func everythingChanged() throws {
        let snapshot = Self.snapshot(tempo: 0.8, transpose: -2, pass: 4, passCount: nil, cores: 2)
        let wide = TimeLine.line(for: snapshot, width: 79, showsUnderruns: false)
        let (wideBar, wideFacts) = try #require(Self.parts(wide), "\(wide)")
        #expect(wideBar.count >= 79 / 4, "\(wide)")
        for fact in ["1:00.0 / 4:00.0", "loop 4/∞", "tempo 80%", "key -2", "2 cores"] { #expect(wideFacts.contains(fact), "\(wide) lacks \(fact)") }
        let narrow = TimeLine.line(for: snapshot, width: 39, showsUnderruns: false)
        let (narrowBar, narrowFacts) = try #require(Self.parts(narrow), "\(narrow)")
        #expect(narrowBar.count >= TimeLine.shortestBar && DisplayWidth.columns(of: narrow) <= 39, "\(narrow)")
        #expect(narrowFacts.hasPrefix("1:00.0 / 4:00.0") && narrowFacts.contains("loop 4/∞"), "\(narrow)")
        for width in 40...200 {
            let line = TimeLine.line(for: snapshot, width: width, showsUnderruns: true)
            #expect(DisplayWidth.columns(of: line) <= width && !line.contains("…") && Self.parts(line) != nil, "\(width) columns: \(line)")
        }
    }
}

extension TimeLineTests {
    @Test("with songs brought to a loudness, the line says the song's loudness and the gain (its folder's, said so), or that it is being measured")
    func loudness() throws {
        var snapshot = Self.snapshot()
        snapshot.loudness = PlayedLoudness(integratedLUFS: -23.44, gainDecibels: 5.44)
        let line = TimeLine.line(for: snapshot, width: 120, showsUnderruns: false)
        #expect(try #require(Self.parts(line)).facts == "1:00.0 / 4:00.0  bar 31 beat 1  96 bpm  −23.4 LUFS +5.4 dB", "\(line)")
        snapshot.loudness = PlayedLoudness(integratedLUFS: -12, gainDecibels: -6.04)
        #expect(TimeLine.line(for: snapshot, width: 120, showsUnderruns: false).hasSuffix("−12.0 LUFS −6.0 dB"))
        snapshot.loudness = PlayedLoudness(integratedLUFS: -12, gainDecibels: -3.06, isFolderGain: true)
        #expect(TimeLine.line(for: snapshot, width: 120, showsUnderruns: false).hasSuffix("−12.0 LUFS folder −3.1 dB"))
        snapshot.loudness = PlayedLoudness(integratedLUFS: nil, gainDecibels: 0)
        #expect(TimeLine.line(for: snapshot, width: 120, showsUnderruns: false).hasSuffix("measuring loudness"))
        // Least important: the first to go when the line is short.
        #expect(!TimeLine.line(for: snapshot, width: 79, showsUnderruns: false).contains("loudness"))
    }
}
