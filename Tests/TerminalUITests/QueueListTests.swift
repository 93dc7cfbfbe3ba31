import Playback
import SystemPackage
import Testing

@testable import TerminalUI

/// The play view's queue list (`l`): numbered files, the one playing marked, the selection kept
/// in sight as it moves.
@Suite struct QueueListTests {
    static let queue = PlayQueue(files: (1...50).map { FilePath("/music/Folder/song \($0).mid") })

    /// The rows without their reverse video, and the index of the one in it.
    static func shown(_ rows: [String]) -> (lines: [String], selected: Int?) {
        (rows.map { $0.replacing("\u{1B}[7m", with: "").replacing("\u{1B}[0m", with: "") }, rows.firstIndex { $0.hasPrefix("\u{1B}[7m") })
    }

    @Test("opened at the song playing: a heading with the keys, the files numbered and named as the play view names them, the playing one marked")
    func opensAtThePlayingSong() {
        var list = QueueList(selected: 2)
        let (lines, selected) = Self.shown(list.rows(for: Self.queue, playing: 2, width: 60, height: 10))
        #expect(lines.count == 10 && lines[0] == "queue, 50 files: ↑↓ move  Enter play  l close", "\(lines)")
        let narrow = list.rows(for: Self.queue, playing: 2, width: 39, height: 10)
        #expect(narrow[0] == "queue, 50 files: ↑↓ move  l close" && narrow.allSatisfy { DisplayWidth.columns(of: Self.shown([$0]).lines[0]) <= 39 })
        #expect(Array(lines[1...3]) == ["   1. song 1.mid", "   2. song 2.mid", "▶  3. song 3.mid"], "\(lines)")
        #expect(selected == 3)
    }

    @Test("the song from standard input is listed as standard input")
    func listsStandardInput() {
        var list = QueueList(selected: 0)
        let queue = PlayQueue(items: [.file("/music/Folder/a.mid"), .standardInput])
        let (lines, _) = Self.shown(list.rows(for: queue, playing: 1, width: 40, height: 10))
        #expect(Array(lines[1...]) == ["  1. a.mid", "▶ 2. standard input"], "\(lines)")
    }

    @Test("moving the selection scrolls the list to keep it in sight, and stops at the queue's ends")
    func theSelectionStaysInSight() {
        var list = QueueList(selected: 2)
        list.move(by: 30, count: 50)
        var (lines, selected) = Self.shown(list.rows(for: Self.queue, playing: 2, width: 40, height: 10))
        #expect(selected == 9 && lines[9] == "  33. song 33.mid" && lines[1] == "  25. song 25.mid", "\(lines)")
        list.move(by: 100, count: 50)
        (lines, selected) = Self.shown(list.rows(for: Self.queue, playing: 2, width: 40, height: 10))
        #expect(list.selected == 49 && selected == 9 && lines[9] == "  50. song 50.mid", "\(lines)")
        list.move(by: -3, count: 50)
        (lines, selected) = Self.shown(list.rows(for: Self.queue, playing: 2, width: 40, height: 10))
        #expect(selected == 6 && lines[9] == "  50. song 50.mid", "the list scrolled back: \(lines)")
        list.move(by: -100, count: 50)
        (lines, selected) = Self.shown(list.rows(for: Self.queue, playing: 2, width: 40, height: 10))
        #expect(list.selected == 0 && selected == 1 && lines[1] == "   1. song 1.mid", "\(lines)")
    }
}
