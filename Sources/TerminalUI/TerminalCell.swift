#if canImport(Glibc)
    import Glibc
#endif

/// One character cell of a drawing on a terminal: a character and, where colours are shown,
/// its colours from the terminal's 256-colour palette (`nil`: the terminal's own).
public struct TerminalCell: Hashable, Sendable {
    var character: Character
    var foreground: UInt8?
    var background: UInt8?

    init(_ character: Character, foreground: UInt8? = nil, background: UInt8? = nil) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    static let blank = TerminalCell(" ")

    /// Colours, unless the user asked for none (`NO_COLOR` set and not empty: https://no-color.org).
    public static var coloursWanted: Bool {
        guard let setting = getenv("NO_COLOR") else { return true }
        return setting.pointee == 0
    }

    /// A row of cells as text, without the blanks at its end (see ``text(_:colours:)``).
    static func line(_ cells: [TerminalCell], colours: Bool) -> String {
        // Blanks at the end are the terminal's own: nothing to write.
        text(cells[..<(cells.lastIndex { $0 != .blank }.map { $0 + 1 } ?? 0)], colours: colours)
    }

    /// Cells as text. With colours, an escape sequence where the colours change, and the
    /// terminal's own colours back at the end; without, the characters alone.
    static func text(_ cells: ArraySlice<TerminalCell>, colours: Bool) -> String {
        guard colours else { return String(cells.map(\.character)) }
        var text = ""
        var current: (foreground: UInt8?, background: UInt8?) = (nil, nil)
        for cell in cells {
            if cell.foreground != current.foreground || cell.background != current.background {
                text += "\u{1B}[0"
                if let foreground = cell.foreground { text += ";38;5;\(foreground)" }
                if let background = cell.background { text += ";48;5;\(background)" }
                text += "m"
                current = (cell.foreground, cell.background)
            }
            text.append(cell.character)
        }
        return current == (nil, nil) ? text : text + "\u{1B}[0m"
    }

    /// What turns a row of cells on the screen into another as long, the cursor at its start:
    /// each run of changed cells, written at its column. Empty when nothing changed.
    static func changes(from old: [TerminalCell], to new: [TerminalCell], colours: Bool) -> String {
        precondition(old.count == new.count, "rows of cells of different lengths")
        var text = ""
        var column = 0
        while column < new.count {
            guard new[column] != old[column] else {
                column += 1
                continue
            }
            var end = column + 1
            while end < new.count, new[end] != old[end] { end += 1 }
            text += "\u{1B}[\(column + 1)G" + Self.text(new[column..<end], colours: colours)
            column = end
        }
        return text
    }
}
