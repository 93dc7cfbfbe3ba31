import Playback
import SystemPackage

/// The player's status on a terminal: what is playing, where, and the keys; the lyrics being
/// sung; the channel panel when it is open; below, the piano keyboard with the notes sounding lit.
/// `?` shows every key of the view (or of the channel panel) instead, until the next key.
struct PlayView {
    /// Adds the output's underrun count to the time line (`--verbose`).
    let showsUnderruns: Bool
    /// Shown inside the browser: `b` goes back to it, `q` stops.
    let insideBrowser: Bool
    /// Draws the keyboard (not with `--no-keyboard`).
    let showsKeyboard: Bool
    /// The lyrics of the song playing, if it has any.
    var lyrics: LyricsView?
    /// What the song playing writes on its sound module's screen, if anything.
    var moduleDisplay: ModuleDisplayView?
    /// The title of the song playing (``SMF/MIDIFile/titleText(decoding:)``: an RMID file's INFO title, else its first track's name), if it has one.
    var title: String?
    /// The channel panel, shown when open.
    var channels = ChannelPanel()
    var showsChannels = false
    /// The help page of the keys shows in place of the view.
    var showsHelp = false
    /// What a key could not do, under the keys until the next key.
    var notice: String?
    /// The queue, shown when open (`l`).
    var queueList: QueueList?
    /// The lines on the screen, as last written, and the terminal's size then.
    private var drawn: [Line] = []
    private var drawnSize: (columns: Int, rows: Int) = (0, 0)

    /// A line of the view: text, or the cells of a keyboard row, which is redrawn cell by cell.
    private enum Line: Equatable {
        case text(String)
        case cells([TerminalCell])
    }

    init(showsUnderruns: Bool, insideBrowser: Bool, showsKeyboard: Bool) {
        self.showsUnderruns = showsUnderruns
        self.insideBrowser = insideBrowser
        self.showsKeyboard = showsKeyboard
    }

    /// The keys of what shows: the play view, or the channel panel with it.
    var keys: ViewKeys {
        if queueList != nil { return .queueList(insideBrowser: insideBrowser) }
        return showsChannels ? .channelPanel(insideBrowser: insideBrowser) : .playView(insideBrowser: insideBrowser)
    }

    /// Redraws the view from the screen's top left, in one write of what changed (nothing when
    /// nothing did): the lines of text that changed, and the keys that changed on the keyboard.
    /// After a resize the screen is cleared and drawn anew: a terminal that reflows its lines
    /// leaves nothing where the last drawing put it. No line is wider than the screen and no
    /// more lines are drawn than it has rows, so nothing wraps or scrolls.
    mutating func draw(_ snapshot: PlayerSnapshot, queue: PlayQueue, terminalSize: (columns: Int, rows: Int)) {
        let width = max(terminalSize.columns - 1, 1)
        var lines =
            showsHelp
            ? keys.helpPage(width: width).map(Line.text)
            : Self.lines(
                for: snapshot, title: title, columns: terminalSize.columns, showsUnderruns: showsUnderruns,
                keys: .playView(insideBrowser: insideBrowser)
            )
            .map(Line.text)
        if !showsHelp, let notice { lines.append(.text(DisplayWidth.fitting(notice, width: width))) }
        if !showsHelp, snapshot.item != nil, let lyrics {
            lines += lyrics.rows(atSeconds: snapshot.heardSeconds, width: width, colours: TerminalCell.coloursWanted).map(Line.text)
        }
        if !showsHelp, snapshot.item != nil, let moduleDisplay {
            lines += moduleDisplay.rows(atSeconds: snapshot.heardSeconds, width: width).map(Line.text)
        }
        if !showsHelp, showsChannels, snapshot.item != nil {
            let label = "channels: "
            lines.append(.text(label + ViewKeys.channelPanelOnly.hints(width: width - label.count)))
            lines += channels.rows(for: snapshot, width: width).map(Line.text)
        }
        if !showsHelp, snapshot.item != nil, var list = queueList {
            lines += list.rows(for: queue, playing: snapshot.place, width: width, height: terminalSize.rows - lines.count).map(Line.text)
            queueList = list
        }
        if !showsHelp, showsKeyboard, snapshot.item != nil, terminalSize.rows >= lines.count + PianoKeyboard.rowCount,
            let keyboard = PianoKeyboard(songKeys: snapshot.noteRange, width: terminalSize.columns - 1)
        {
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

    /// Forgets what is on the screen (the terminal was given back, and taken again): the next
    /// drawing clears it and draws every line.
    mutating func invalidate() {
        drawn = []
        drawnSize = (0, 0)
    }

    /// What the view and the log say while the sound server is gone.
    static let outputLostNotice = "sound server gone, reconnecting…"

    /// The view's lines; the song's `title`, when it has one, before its file's name.
    static func lines(for snapshot: PlayerSnapshot, title: String? = nil, columns: Int, showsUnderruns: Bool, keys: ViewKeys) -> [String] {
        let width = max(columns - 1, 1)
        guard let item = snapshot.item else { return ["(nothing playing)"] }
        let parts = shownParts(of: item)
        let name = shownName(of: item, title: title)
        let folders = parts.dropLast().suffix(2).joined(separator: " / ")
        let place = "\(snapshot.place + 1) of \(snapshot.queueLength)"
        let folderWidth = max(0, width - DisplayWidth.columns(of: place) - 2)
        let folderText = DisplayWidth.fitting(folders, width: folderWidth)
        let gap = String(repeating: " ", count: max(1, width - DisplayWidth.columns(of: folderText) - DisplayWidth.columns(of: place)))
        return [
            DisplayWidth.fitting((snapshot.isPaused ? "❚❚ " : "▶ ") + name, width: width),
            DisplayWidth.fitting(folderText + gap + place, width: width),
            TimeLine.line(for: snapshot, width: width, showsUnderruns: showsUnderruns),
        ] + (snapshot.isOutputLost ? [DisplayWidth.fitting(Self.outputLostNotice, width: width)] : []) + [keys.hintLine(width: width)]
    }

    /// A queue item's path as the view shows it: its components, or standard input's name.
    static func shownParts(of item: QueueItem) -> [String] {
        switch item {
        case .file(let path): path.components.map(\.text)
        case .standardInput: [item.displayName]
        }
    }

    /// What names the song playing: its title, when it has one that is not its file's name, then
    /// its file's name.
    static func shownName(of item: QueueItem, title: String?) -> String {
        let fileName = fileName(of: item)
        guard let title, !title.isEmpty, title != item.file?.stem else { return fileName }
        return "\(title)  (\(fileName))"
    }

    /// A queue item's name as the view shows it: its file's name, or standard input's.
    static func fileName(of item: QueueItem) -> String {
        shownParts(of: item).last ?? item.displayName
    }
}
