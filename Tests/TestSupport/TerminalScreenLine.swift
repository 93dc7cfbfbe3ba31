/// A line of terminal output with its colour escape sequences (SGR) read: each character cell with
/// the colours it shows in, as indexes of the 256-colour palette (`nil`: the terminal's own).
/// Reads what a program writes and what `tmux capture-pane -e` gives back (see ``screen(_:)``).
public struct TerminalScreenLine: Sendable {
    public struct Cell: Hashable, Sendable {
        public var character: Character
        public var foreground: UInt8?
        public var background: UInt8?
    }

    public private(set) var cells: [Cell] = []
    /// The colours in force after the line's last character.
    public private(set) var foreground: UInt8?
    public private(set) var background: UInt8?

    /// A line that starts in the terminal's own colours, or in those given.
    public init(_ line: String, foreground: UInt8? = nil, background: UInt8? = nil) {
        var foreground = foreground
        var background = background
        defer {
            self.foreground = foreground
            self.background = background
        }
        var characters = line[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            guard character == "\u{1B}" else {
                cells.append(Cell(character: character, foreground: foreground, background: background))
                continue
            }
            // CSI: ESC [ parameters final-byte; only SGR (final byte m) changes colours.
            guard characters.first == "[" else { continue }
            let body = characters.dropFirst().prefix { !$0.isLetter }
            let final = characters.dropFirst(1 + body.count).first
            characters = characters.dropFirst(2 + body.count)
            guard final == "m" else { continue }
            var parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
            if parameters.isEmpty { parameters = [0] }
            while let parameter = parameters.popFirst() {
                switch parameter {
                case 0:
                    foreground = nil
                    background = nil
                case 30...37: foreground = UInt8(parameter - 30)
                case 90...97: foreground = UInt8(parameter - 90 + 8)
                case 40...47: background = UInt8(parameter - 40)
                case 100...107: background = UInt8(parameter - 100 + 8)
                case 39: foreground = nil
                case 49: background = nil
                case 38, 48:
                    let colour: UInt8?
                    switch parameters.popFirst() {
                    case 5: colour = parameters.popFirst().flatMap(UInt8.init(exactly:))
                    case 2:
                        // A 24-bit colour has no palette index.
                        parameters = parameters.dropFirst(3)
                        colour = nil
                    default: colour = nil
                    }
                    if parameter == 38 { foreground = colour } else { background = colour }
                default: break
                }
            }
        }
    }

    /// The lines of a screen as `tmux capture-pane -e` gives them: it writes only changes of
    /// colour, so a line goes on in the colours the one before it ended with.
    public static func screen(_ lines: [String]) -> [TerminalScreenLine] {
        var read: [TerminalScreenLine] = []
        for line in lines { read.append(TerminalScreenLine(line, foreground: read.last?.foreground, background: read.last?.background)) }
        return read
    }

    /// The characters alone.
    public var text: String { String(cells.map(\.character)) }
}
