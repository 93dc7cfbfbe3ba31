import Foundation
import Library
import LibraryIndex
import SystemPackage
import TestSupport
import Testing

@testable import Playback
@testable import TerminalUI

/// Names on screen: control characters in them are shown, never obeyed by the terminal, and the
/// lines that show them fit the screen.
@Suite("Display width")
struct DisplayWidthTests {
    static let hostileFolder = "clear\u{1B}[2J"
    static let hostileFile = "esc\u{1B}[2J\u{1B}[31mred\u{9B}1m\u{7F}.mid"
    static let brokenLineFile = "two\nlines\tand\r\nmore.mid"

    /// What a browser's line shows: without the reverse video that marks the selected line.
    static func shown(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
    }

    /// Whether the text holds a control character (C0, DEL, C1).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    @Test("control characters shown as U+FFFD; other text, wide characters and marks left as they are")
    func printable() {
        #expect(DisplayWidth.printable(Self.hostileFile) == "esc\u{FFFD}[2J\u{FFFD}[31mred\u{FFFD}1m\u{FFFD}.mid")
        #expect(DisplayWidth.printable(Self.brokenLineFile) == "two\u{FFFD}lines\u{FFFD}and\u{FFFD}\u{FFFD}more.mid")
        #expect(DisplayWidth.printable("Chopin – 中文 🎹 e\u{301}") == "Chopin – 中文 🎹 e\u{301}")
    }

    @Test("columns: CJK, kana, Hangul, full-width forms and emoji take two; Latin, half-width kana and marks as they show")
    func eastAsianWidths() {
        #expect(DisplayWidth.columns(of: "ショパン") == 8)
        #expect(DisplayWidth.columns(of: "ｼｮﾊﾟﾝ") == 5) // half-width kana: the sound mark joins ﾊ in one Character but takes its own column
        #expect(DisplayWidth.columns(of: "\u{1100}\u{1161}\u{11A8}") == 2) // 각 from jamo
        #expect(DisplayWidth.columns(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}") == 2) // a family, one emoji
        #expect(DisplayWidth.columns(of: "バラード第1番") == 13)
        #expect(DisplayWidth.columns(of: "한국어") == 6)
        #expect(DisplayWidth.columns(of: "ＡＢＣ") == 6)
        #expect(DisplayWidth.columns(of: "\u{20BB7}") == 2) // 𠮷, plane 2
        #expect(DisplayWidth.columns(of: "〜") == 2)
        #expect(DisplayWidth.columns(of: "e\u{301}") == 1)
        #expect(DisplayWidth.columns(of: "\u{301}") == 0)
        #expect(DisplayWidth.columns(of: "🎹") == 2)
        #expect(DisplayWidth.columns(of: "\u{2764}\u{FE0F}") == 2) // ❤️: text heart with VS16
        #expect(DisplayWidth.columns(of: "\u{2764}") == 1)
        #expect(DisplayWidth.columns(of: "Chopin – Ballade") == 16)
    }

    @Test("the generated wide-character table: sorted, disjoint runs, as the generator writes them from this Unicode version")
    func wideCharacterTable() {
        let runs = WideCharacters.runs
        #expect(!runs.isEmpty)
        for (earlier, later) in zip(runs, runs.dropFirst()) {
            #expect(earlier.upperBound + 1 < later.lowerBound, "\(earlier) and \(later) overlap or touch")
        }
        #expect(WideCharacters.unicodeVersion == "14.0.0")
        // The first and last code point of each run are wide, their neighbours not.
        for run in runs {
            #expect(DisplayWidth.isWide(Unicode.Scalar(run.lowerBound)!))
            #expect(DisplayWidth.isWide(Unicode.Scalar(run.upperBound)!))
            if let before = Unicode.Scalar(run.lowerBound - 1) { #expect(!DisplayWidth.isWide(before)) }
            if let after = Unicode.Scalar(run.upperBound + 1) { #expect(!DisplayWidth.isWide(after)) }
        }
    }

    @Test("a name fitted to a width: its control characters shown, and counted as shown")
    func fitting() {
        let shown = DisplayWidth.printable(Self.brokenLineFile)
        #expect(DisplayWidth.fitting(Self.brokenLineFile, width: 40) == shown)
        let cut = DisplayWidth.fitting(Self.brokenLineFile, width: 10)
        #expect(cut == String(shown.prefix(9)) + "…")
        #expect(DisplayWidth.columns(of: cut) == 10)
    }

    @Test("the browser: breadcrumb, listing, filter and status show names with control characters within the screen's width")
    func browserLines() throws {
        let library = try TemporaryFolder()
        let folder = library.file(Self.hostileFolder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in [Self.hostileFile, Self.brokenLineFile] {
            try Data("MThd".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        var browser = LibraryBrowser(root: library.filePath, lastPlayed: FilePath(folder + "/" + Self.hostileFile))
        #expect(browser.trail == [FilePath.Component(Self.hostileFolder)])
        var view = BrowserView()
        // Down to screens narrower than a line's marker and details.
        let cases = [("", "▶ " + Self.brokenLineFile), ("\u{1B}[2J", "")].flatMap { filter, status in [30, 8, 3].map { (filter, status, $0) } }
        for (filter, status, columns) in cases {
            browser.setFilter(filter)
            let lines = view.lines(
                for: browser, details: { _ in .pending }, lastPlayed: nil, isEditingFilter: !filter.isEmpty,
                status: status, columns: columns, rows: 10)
            #expect(lines.count == 10)
            for line in lines.map(Self.shown) {
                #expect(!Self.hasControlCharacter(line), "\(line.debugDescription)")
                #expect(DisplayWidth.columns(of: line) <= columns, "\(columns) columns: \(line.debugDescription)")
            }
        }
    }

    @Test("the play view: the file's and folders' names with control characters within the screen's width")
    func playViewLines() {
        let snapshot = PlayerSnapshot(
            item: .file(FilePath("/music/\(Self.hostileFolder)/\(Self.brokenLineFile)")), place: 0, queueLength: 1, heardSeconds: 0,
            heardTick: 0, durationSeconds: 60, isPaused: false, tempoBPM: nil, hasEnded: false, underruns: 0,
            pressedKeys: [], noteRange: nil)
        let lines = PlayView.lines(for: snapshot, columns: 30, showsUnderruns: false, keys: .playView(insideBrowser: false))
        #expect(lines.first == "▶ two\u{FFFD}lines\u{FFFD}and\u{FFFD}\u{FFFD}more.mid")
        for line in lines {
            #expect(!Self.hasControlCharacter(line), "\(line.debugDescription)")
            #expect(DisplayWidth.columns(of: line) <= 29, "\(line.debugDescription)")
        }
    }

    @Test("the play view: the song's title first, its file's name after; the name alone when the song has no title or it is the name")
    func playViewShowsTheTitle() {
        let snapshot = PlayerSnapshot(
            item: .file(FilePath("/music/Chopin/op9-2.mid")), place: 0, queueLength: 1, heardSeconds: 0,
            heardTick: 0, durationSeconds: 60, isPaused: false, tempoBPM: nil, hasEnded: false, underruns: 0,
            pressedKeys: [], noteRange: nil)
        func firstLine(_ title: String?) -> String? {
            PlayView.lines(for: snapshot, title: title, columns: 80, showsUnderruns: false, keys: .playView(insideBrowser: false)).first
        }
        #expect(firstLine("Nocturne in E-flat major") == "▶ Nocturne in E-flat major  (op9-2.mid)")
        #expect(firstLine(nil) == "▶ op9-2.mid")
        #expect(firstLine("op9-2") == "▶ op9-2.mid")
    }

    @Test("the browser: files' lengths and track counts line up, whatever their number of digits")
    func detailsLineUp() throws {
        let library = try TemporaryFolder()
        for name in ["a.mid", "b.mid", "c.mid"] { try Data("MThd".utf8).write(to: URL(fileURLWithPath: library.file(name))) }
        let details: [String: FileDetails.Lookup] = [
            "a.mid": .ready(durationSeconds: 60, trackCount: 6),
            "b.mid": .ready(durationSeconds: 196.2, trackCount: 12),
            "c.mid": .ready(durationSeconds: 725.4, trackCount: 128),
        ]
        var view = BrowserView()
        let lines = view.lines(
            for: LibraryBrowser(root: library.filePath), details: { details[$0.lastComponent!.string] }, lastPlayed: nil,
            isEditingFilter: false, status: "", columns: 40, rows: 8
        ).map(Self.shown).filter { $0.hasSuffix(" tr") }
        #expect(lines.count == 3, "\(lines)")
        #expect(Set(lines.map { $0.count }).count == 1, "\(lines)")
        #expect(lines.map { String($0.suffix(17)) } == ["   1:00.0    6 tr", "   3:16.2   12 tr", "  12:05.4  128 tr"], "\(lines)")
    }
}
