import Testing

@testable import Playback
@testable import TerminalUI

/// The play view's names for the song playing when it came from standard input (it has no file
/// and no folders), and what it says while the sound server is gone.
@Suite struct PlayViewTests {
    static func firstLines(_ item: QueueItem, title: String? = nil) -> [String] {
        let snapshot = PlayerSnapshot(
            item: item, place: 0, queueLength: 2, heardSeconds: 0, heardTick: 0, durationSeconds: 60, isPaused: false,
            tempoBPM: nil, hasEnded: false, underruns: 0, pressedKeys: [], noteRange: nil)
        return Array(PlayView.lines(for: snapshot, title: title, columns: 40, showsUnderruns: false, keys: .playView(insideBrowser: false)).prefix(2))
    }

    @Test("a song from standard input is called standard input, after its title if it has one, with no folders")
    func standardInputIsNamed() {
        #expect(Self.firstLines(.standardInput) == ["▶ standard input", String(repeating: " ", count: 33) + "1 of 2"])
        #expect(Self.firstLines(.standardInput, title: "Piped") == ["▶ Piped  (standard input)", String(repeating: " ", count: 33) + "1 of 2"])
        #expect(
            Self.firstLines(.file("/music/Chopin/Nocturnes/op9-2.mid")) == [
                "▶ op9-2.mid", "Chopin / Nocturnes" + String(repeating: " ", count: 15) + "1 of 2",
            ])
    }

    @Test("while the sound server is gone, the view says so under the time line, and not once it is back")
    func outputLost() {
        var snapshot = PlayerSnapshot(
            item: .file("/music/song.mid"), place: 0, queueLength: 1, heardSeconds: 3, heardTick: 0, durationSeconds: 60, isPaused: false,
            tempoBPM: nil, hasEnded: false, underruns: 0, pressedKeys: [], noteRange: nil)
        snapshot.isOutputLost = true
        let lost = PlayView.lines(for: snapshot, columns: 60, showsUnderruns: false, keys: .playView(insideBrowser: false))
        #expect(lost.count == 5 && lost[3] == "sound server gone, reconnecting…", "\(lost)")
        snapshot.isOutputLost = false
        let back = PlayView.lines(for: snapshot, columns: 60, showsUnderruns: false, keys: .playView(insideBrowser: false))
        #expect(back.count == 4 && !back.contains { $0.contains("reconnecting") }, "\(back)")
    }
}
