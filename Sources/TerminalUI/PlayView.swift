import Playback
import SystemPackage

/// The player's status on a terminal: what is playing, where, and the keys; the lyrics being
/// sung; the channel panel when it is open; below, the piano keyboard with the notes sounding lit.
struct PlayView {
    static let keysLine = "space pause  ←/→ 5 s  ↑/↓ 30 s  n next  p previous  r restart  q quit  +/- key  [/] tempo  c channels"
    static let browserKeysLine = "space pause  ←/→ 5 s  ↑/↓ 30 s  n next  p previous  r restart  b browse  q stop  +/- key  [/] tempo  c channels"
    static let channelKeysLine = "channels: 1-9 0 tab select  m mute  s solo  u all on  c close"
    /// Adds the output's underrun count to the time line (`--verbose`).
    let showsUnderruns: Bool
    let keysLine: String
    /// Draws the keyboard (not with `--no-keyboard`).
    let showsKeyboard: Bool
    /// The lyrics of the song playing, if it has any.
    var lyrics: LyricsView?
    /// The channel panel, shown when open.
    var channels = ChannelPanel()
    var showsChannels = false
    /// The lines on the screen, as last written, and the terminal's size then.
    private var drawn: [Line] = []
    private var drawnSize: (columns: Int, rows: Int) = (0, 0)

    /// A line of the view: text, or the cells of a keyboard row, which is redrawn cell by cell.
    private enum Line: Equatable {
        case text(String)
        case cells([TerminalCell])
    }

    init(showsUnderruns: Bool, keysLine: String, showsKeyboard: Bool) {
        self.showsUnderruns = showsUnderruns
        self.keysLine = keysLine
        self.showsKeyboard = showsKeyboard
    }

    /// Redraws the view from the screen's top left, in one write of what changed (nothing when
    /// nothing did): the lines of text that changed, and the keys that changed on the keyboard.
    /// After a resize the screen is cleared and drawn anew: a terminal that reflows its lines
    /// leaves nothing where the last drawing put it. No line is wider than the screen and no
    /// more lines are drawn than it has rows, so nothing wraps or scrolls.
    mutating func draw(_ snapshot: PlayerSnapshot, terminalSize: (columns: Int, rows: Int)) {
        var lines = Self.lines(for: snapshot, columns: terminalSize.columns, showsUnderruns: showsUnderruns, keysLine: keysLine)
            .map(Line.text)
        let width = max(terminalSize.columns - 1, 1)
        if snapshot.file != nil, let lyrics {
            lines += lyrics.rows(atSeconds: snapshot.heardSeconds, width: width, colours: TerminalCell.coloursWanted).map(Line.text)
        }
        if showsChannels, snapshot.file != nil {
            lines.append(.text(DisplayWidth.fitting(Self.channelKeysLine, width: width)))
            lines += channels.rows(for: snapshot, width: width).map(Line.text)
        }
        if showsKeyboard, snapshot.file != nil, terminalSize.rows >= lines.count + PianoKeyboard.rowCount,
           let keyboard = PianoKeyboard(songKeys: snapshot.noteRange, width: terminalSize.columns - 1) {
            lines += keyboard.cells(pressed: snapshot.pressedKeys).map(Line.cells)
        }
        lines = Array(lines.prefix(max(terminalSize.rows, 1)))
        let resized = terminalSize != drawnSize
        if resized { drawn = [] }
        guard lines != drawn || resized else { return }
        let colours = TerminalCell.coloursWanted
        var text = "\u{1B}[H" + (resized ? "\u{1B}[2J" : "")
        for (index, line) in lines.enumerated() {
            if index > 0 { text += "\r\n" }
            let before = drawn.indices.contains(index) ? drawn[index] : nil
            switch (before, line) {
            case (let before?, _) where before == line:
                break
            case (.cells(let old)?, .cells(let new)) where old.count == new.count:
                text += TerminalCell.changes(from: old, to: new, colours: colours)
            case (_, .text(let string)):
                text += string + "\u{1B}[K"
            case (_, .cells(let cells)):
                text += TerminalCell.line(cells, colours: colours) + "\u{1B}[K"
            }
        }
        // Fewer lines than before (the keyboard gone, nothing playing): none of the old ones is left below.
        if lines.count < drawn.count { text += "\u{1B}[\(lines.count + 1);1H\u{1B}[J" }
        writeToStandardOutput(text)
        drawn = lines
        drawnSize = terminalSize
    }

    static func lines(for snapshot: PlayerSnapshot, columns: Int, showsUnderruns: Bool, keysLine: String) -> [String] {
        let width = max(columns - 1, 1)
        guard let file = snapshot.file else { return ["(nothing playing)"] }
        let parts = file == StandardInput.queueEntry ? [StandardInput.name] : file.components.map(\.text)
        let name = parts.last ?? file.text
        let folders = parts.dropLast().suffix(2).joined(separator: " / ")
        let place = "\(snapshot.place + 1) of \(snapshot.queueLength)"
        var time = "\(formatDuration(snapshot.heardSeconds)) / \(formatDuration(snapshot.durationSeconds))"
        if let place = snapshot.barBeat { time += "  bar \(place.bar) beat \(place.beat)" }
        if let tempo = snapshot.tempoBPM { time += "  \(Int(tempo.rounded())) bpm" }
        let performance = snapshot.performance
        if performance.tempo != 1 {
            // Song time first, as seeks and the resume state count it; then the time it takes at this tempo.
            time += "  tempo \(Int((performance.tempo * 100).rounded()))% (\(formatDuration(snapshot.heardSeconds / performance.tempo)) / \(formatDuration(snapshot.durationSeconds / performance.tempo)) heard)"
        }
        if performance.transpose != 0 { time += "  key \(performance.transpose > 0 ? "+" : "")\(performance.transpose)" }
        if snapshot.passCount != 1 { time += "  loop \(snapshot.pass)/\(snapshot.passCount.map(String.init) ?? "∞")" }
        if snapshot.cores > 1 { time += "  \(snapshot.cores) cores" }
        if showsUnderruns { time += "  underruns \(snapshot.underruns)  load \(Int((snapshot.renderLoad * 100).rounded()))%" }
        let barWidth = max(0, width - DisplayWidth.columns(of: time) - 3)
        let fraction = snapshot.durationSeconds > 0 ? min(1, snapshot.heardSeconds / snapshot.durationSeconds) : 0
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        let folderWidth = max(0, width - DisplayWidth.columns(of: place) - 2)
        let folderText = DisplayWidth.fitting(folders, width: folderWidth)
        let gap = String(repeating: " ", count: max(1, width - DisplayWidth.columns(of: folderText) - DisplayWidth.columns(of: place)))
        return [
            DisplayWidth.fitting((snapshot.isPaused ? "❚❚ " : "▶ ") + name, width: width),
            DisplayWidth.fitting(folderText + gap + place, width: width),
            DisplayWidth.fitting(barWidth > 0 ? bar + " " + time : time, width: width),
            DisplayWidth.fitting(keysLine, width: width),
        ]
    }
}
