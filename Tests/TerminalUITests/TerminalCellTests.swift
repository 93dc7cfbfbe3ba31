import TestSupport
import Testing

@testable import TerminalUI

@Suite("Terminal cells")
struct TerminalCellTests {
    @Test("one escape sequence where the colours change, the terminal's colours back at the end, no blanks after the last cell drawn")
    func colourChangesOnly() {
        let red = TerminalCell("x", foreground: 16, background: 196)
        let cells = [red, red, TerminalCell("y", foreground: 16, background: 196), .blank, TerminalCell("z", background: 21), .blank, .blank]
        let line = TerminalCell.line(cells, colours: true)
        #expect(line == "\u{1B}[0;38;5;16;48;5;196mxxy\u{1B}[0m \u{1B}[0;48;5;21mz\u{1B}[0m")
        let read = TerminalScreenLine(line)
        #expect(read.text == "xxy z")
        #expect(read.cells.map(\.background) == [196, 196, 196, nil, 21])
        #expect(TerminalCell.line(cells, colours: false) == "xxy z")
        #expect(TerminalCell.line([.blank, .blank], colours: true).isEmpty)
    }

    @Test("a row redrawn: only the runs of cells that changed, each at its column; nothing when none did")
    func changedCellsOnly() {
        let white = TerminalCell(" ", foreground: 244, background: 254)
        let lit = TerminalCell("●", foreground: 16, background: 75)
        let old = [TerminalCell](repeating: white, count: 10)
        var new = old
        new[2] = lit
        new[3] = lit
        new[8] = lit
        #expect(
            TerminalCell.changes(from: old, to: new, colours: true)
                == "\u{1B}[3G\u{1B}[0;38;5;16;48;5;75m●●\u{1B}[0m\u{1B}[9G\u{1B}[0;38;5;16;48;5;75m●\u{1B}[0m")
        #expect(TerminalCell.changes(from: old, to: new, colours: false) == "\u{1B}[3G●●\u{1B}[9G●")
        #expect(TerminalCell.changes(from: new, to: new, colours: true).isEmpty)
    }
}
