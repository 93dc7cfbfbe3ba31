import Testing

@testable import TerminalUI

/// The hint lines and the help pages of the views' keys, at the widths a terminal may have.
@Suite struct ViewKeysTests {
    static let views: [ViewKeys] = [
        .playView(insideBrowser: false), .playView(insideBrowser: true), .channelPanel(insideBrowser: false),
        .channelPanel(insideBrowser: true), .queueList(insideBrowser: false), .queueList(insideBrowser: true),
        .browser, .searchResults,
    ]

    @Test("at 80 columns the play view's hint line shows tempo and the channel panel, whole, and ends with ? help")
    func eightyColumns() {
        let line = ViewKeys.playView(insideBrowser: false).hintLine(width: 79)
        #expect(line.contains("[/] tempo") && line.contains("c channels") && line.hasSuffix("  ? help") && !line.contains("…"), "\(line)")
        let insideBrowser = ViewKeys.playView(insideBrowser: true).hintLine(width: 79)
        #expect(insideBrowser.contains("b browse") && insideBrowser.contains("[/] tempo") && insideBrowser.contains("c channels"), "\(insideBrowser)")
    }

    @Test("from 20 to 200 columns every hint line is whole hints that fit, the most wanted first, and ends with ? help")
    func hintLinesFit() {
        for keys in Self.views {
            let hints = keys.entries.compactMap(\.hint)
            // The first of the most wanted: shown whenever it fits beside `? help`.
            let wanted = keys.entries.filter { $0.hint != nil }.min { $0.rank < $1.rank }?.hint ?? ""
            for width in 20...200 {
                let line = keys.hintLine(width: width)
                #expect(DisplayWidth.columns(of: line) <= width, "\(width) columns: \(line)")
                let pieces = line.components(separatedBy: "  ")
                #expect(pieces.last == ViewKeys.helpHint, "\(width) columns: \(line)")
                #expect(pieces.dropLast().allSatisfy(hints.contains), "\(width) columns, a hint cut: \(line)")
                if DisplayWidth.columns(of: wanted + "  " + ViewKeys.helpHint) <= width {
                    #expect(pieces.contains(wanted), "\(width) columns: \(line) lacks \(wanted)")
                }
            }
            #expect(keys.hintLine(width: 200).components(separatedBy: "  ").count == hints.count + 1, "not every hint shows at 200 columns")
        }
    }

    @Test("the help page at 40 columns: every key and what it does, whole, ? itself, and how to close it, on a 24-row screen")
    func helpPageAtForty() {
        for keys in Self.views {
            let page = keys.helpPage(width: 39)
            #expect(page.count <= 24, "\(keys.title): \(page.count) lines")
            #expect(page.first == "Keys: " + keys.title && page.last == ViewKeys.closingLine)
            for line in page { #expect(DisplayWidth.columns(of: line) <= 39 && !line.contains("…"), "\(keys.title): \(line)") }
            for entry in keys.entries + [ViewKeys.Entry("?", "this help")] {
                #expect(
                    page.contains { $0.hasPrefix("  " + entry.keys + " ") && $0.hasSuffix("  " + entry.meaning) },
                    "\(keys.title): \(entry.keys) (\(entry.meaning)) is not on the page")
            }
        }
    }

    @Test("the channel panel's page has its own keys and the play view's, c once (it closes the panel)")
    func channelPanelPage() {
        let page = ViewKeys.channelPanel(insideBrowser: false).helpPage(width: 79)
        #expect(page.filter { $0.hasPrefix("  c ") } == ["  c      close the panel"], "\(page)")
        #expect(page.contains { $0.hasPrefix("  m ") } && page.contains { $0.hasPrefix("  space ") } && page.contains { $0.hasPrefix("  [/] ") })
    }

    @Test("pieces are kept by rank, shown in their order; one that does not fit leaves room for a smaller one")
    func piecesByRank() {
        let pieces = [("aaaa", 2), ("bbbbbbbbbb", 1), ("cc", 0), ("dd", 3)]
        #expect(LinePieces.fitting(pieces, width: 20) == "aaaa  bbbbbbbbbb  cc")
        #expect(LinePieces.fitting(pieces, width: 14) == "bbbbbbbbbb  cc")
        #expect(LinePieces.fitting(pieces, width: 12) == "aaaa  cc  dd")
        #expect(LinePieces.fitting(pieces, width: 1) == "")
    }
}
