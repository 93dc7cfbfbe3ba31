/// The keys of one view: the hint line at the bottom shows those that fit, by importance, and
/// always ends with `? help`; `?` shows them all on a page of their own. The play view, the channel
/// panel, the browser and its search results each have theirs.
struct ViewKeys: Equatable {
    struct Entry: Equatable {
        /// The keys as the help page names them: "←/→".
        let keys: String
        /// What the hint line says of them, keys included ("←/→ 5 s"); nil for keys it leaves to
        /// the help page.
        let hint: String?
        /// What they do, short enough for a 40-column help page.
        let meaning: String
        /// How much the hint line wants them: 0 first.
        let rank: Int

        init(_ keys: String, hint: String? = nil, _ meaning: String, rank: Int = 0) {
            self.keys = keys
            self.hint = hint
            self.meaning = meaning
            self.rank = rank
        }
    }

    /// What the help page's first line calls the view.
    let title: String
    let entries: [Entry]

    static let helpHint = "? help"
    static let closingLine = "Any key closes this help."

    /// The hints that fit `width`, by importance, without `? help`.
    func hints(width: Int) -> String {
        LinePieces.fitting(entries.compactMap { entry in entry.hint.map { ($0, entry.rank) } }, width: width)
    }

    /// The hint line: the hints that fit, then `? help`.
    func hintLine(width: Int) -> String {
        let hints = hints(width: width - DisplayWidth.columns(of: Self.helpHint) - LinePieces.separator.count)
        return DisplayWidth.fitting(hints.isEmpty ? Self.helpHint : hints + LinePieces.separator + Self.helpHint, width: width)
    }

    /// The help page: the view's name, each key and what it does (the meanings in a column of
    /// their own), `?` itself, and how to close the page; every line at most `width` columns.
    func helpPage(width: Int) -> [String] {
        let listed = entries + [Entry("?", "this help")]
        let keyWidth = listed.map { DisplayWidth.columns(of: $0.keys) }.max() ?? 0
        let rows = listed.map { entry in
            let padding = String(repeating: " ", count: keyWidth - DisplayWidth.columns(of: entry.keys))
            return DisplayWidth.fitting("  " + entry.keys + padding + "  " + entry.meaning, width: width)
        }
        return [DisplayWidth.fitting("Keys: " + title, width: width)] + rows + [DisplayWidth.fitting(Self.closingLine, width: width)]
    }
}

extension ViewKeys {
    /// The play view's keys; inside the browser, `b` goes back to it and `q` stops the music.
    static func playView(insideBrowser: Bool) -> ViewKeys {
        ViewKeys(title: "the play view", entries: playEntries(insideBrowser: insideBrowser))
    }

    /// The channel panel's keys, then the play view's, which work with the panel open.
    static func channelPanel(insideBrowser: Bool) -> ViewKeys {
        ViewKeys(
            title: "the channel panel",
            entries: channelEntries + playEntries(insideBrowser: insideBrowser).filter { $0.keys != "c" })
    }

    /// The queue list's keys, then those of the play view that work with it open.
    static func queueList(insideBrowser: Bool) -> ViewKeys {
        ViewKeys(
            title: "the queue",
            entries: queueEntries + playEntries(insideBrowser: insideBrowser).filter { !["↑/↓", "q/Esc", "l"].contains($0.keys) }
                + [Entry("q", insideBrowser ? "stop, back to the browser" : "quit")])
    }

    /// The queue list's own keys, for its heading.
    static let queueListOnly = ViewKeys(title: "the queue alone", entries: queueEntries)

    private static let queueEntries =
        movingEntries + [
            Entry("Enter", hint: "Enter play", "play the file selected", rank: 1),
            Entry("l/Esc", hint: "l close", "close the queue", rank: 0),
        ]

    /// The channel panel's own keys, for the line above it.
    static let channelPanelOnly = ViewKeys(title: "the channel panel alone", entries: channelEntries)

    private static func playEntries(insideBrowser: Bool) -> [Entry] {
        [
            Entry("space", hint: "space pause", "pause / go on", rank: 0),
            Entry("←/→", hint: "←/→ 5 s", "seek 5 s back / on", rank: 1),
            Entry("↑/↓", hint: "↑/↓ 30 s", "seek 30 s on / back", rank: 5),
            Entry("n", hint: "n next", "next song", rank: 2),
            Entry("p", hint: "p previous", "previous song / its start", rank: 6),
            Entry("r", hint: "r restart", "this song from its start", rank: 8),
        ] + (insideBrowser ? [Entry("b", hint: "b browse", "the browser, music on", rank: 1)] : []) + [
            Entry("q/Esc", hint: insideBrowser ? "q stop" : "q quit", insideBrowser ? "stop, back to the browser" : "quit", rank: 0),
            Entry("+/-", hint: "+/- key", "key a semitone up / down", rank: 7),
            Entry("[/]", hint: "[/] tempo", "tempo 5 % slower / faster", rank: 4),
            Entry("c", hint: "c channels", "the channel panel", rank: 3),
            Entry("l", hint: "l queue", "the queue", rank: 6),
        ]
    }

    private static let channelEntries = [
        Entry("1-9/0", hint: "1-9 0 tab select", "select channel 1–9, 10", rank: 0),
        Entry("Tab", "select the next channel"),
        Entry("m", hint: "m mute", "mute / unmute it", rank: 1),
        Entry("s", hint: "s solo", "solo it / take it out", rank: 2),
        Entry("u", hint: "u all on", "every channel plays", rank: 3),
        Entry("c", hint: "c close", "close the panel", rank: 0),
    ]

    /// The browser's keys in a folder.
    static let browser = ViewKeys(
        title: "the browser",
        entries: movingEntries + [
            Entry("→", hint: "→ open", "open the folder", rank: 1),
            Entry("Enter", hint: "Enter play", "open / play from the file", rank: 2),
            Entry("←/Bksp", hint: "← back", "up a folder", rank: 1),
            Entry("P", hint: "P play folder", "play the folder, all of it", rank: 4),
            Entry("a", hint: "a add", "add to the queue", rank: 5),
            Entry("/", hint: "/ search", "search the library", rank: 3),
            Entry("~", hint: "~ top", "the library's top", rank: 6),
            playViewEntry,
            Entry("q/Esc", hint: "q quit", "leave; Esc clears a filter", rank: 0),
        ])

    /// The browser's keys in search results.
    static let searchResults = ViewKeys(
        title: "the search results",
        entries: movingEntries + [
            Entry("Enter", hint: "Enter play", "play from this file on", rank: 1),
            Entry("a", hint: "a add", "add to the queue", rank: 3),
            Entry("P", "play the folder searched"),
            Entry("/", hint: "/ change", "change the search", rank: 2),
            Entry("Esc/←", hint: "Esc back", "back to the folder", rank: 0),
            Entry("~", "the library's top"),
            playViewEntry,
            Entry("q", hint: "q quit", "leave the browser", rank: 0),
        ])

    /// How a list's selection moves: the browser's, in a folder or in search results, and the queue's.
    private static let movingEntries = [
        Entry("↑/↓", hint: "↑↓ move", "move", rank: 0),
        Entry("PgUp/PgDn", "a page up / down"),
        Entry("Home/End", "to the first / last"),
    ]

    private static let playViewEntry = Entry("v", "the play view, music on")
}
