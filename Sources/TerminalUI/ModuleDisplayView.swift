import SMF

/// What the song playing writes on its sound module's screen, as the play view shows it at the
/// time heard: the letters last sent after the module's name (`GS│ Welcome…`), scrolled as the
/// module scrolls them (``ScrollingLetters``), and the last dot picture (the Sound Canvas's, or an
/// MU's bitmap while the MU would show it) in half blocks, 8 rows of 16 columns.
struct ModuleDisplayView {
    private let changes: [(seconds: Double, content: ModuleDisplay.Content)]
    private let decoding: TextDecoding

    /// Nil for a song that writes nothing on the screen.
    init?(song: Song, decoding: TextDecoding) {
        changes = ModuleDisplay.changes(in: song)
        guard !changes.isEmpty else { return nil }
        self.decoding = decoding
    }

    func rows(atSeconds seconds: Double, width: Int) -> [String] {
        // The last change at or before `seconds`: a binary search (an animation sends hundreds).
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].seconds <= seconds { low = middle + 1 } else { high = middle }
        }
        let shown = changes[..<low]
        var rows: [String] = []
        if let sent = shown.last(where: { if case .text = $0.content { true } else { false } }),
            case .text(let letters, let module) = sent.content
        {
            let scrolling = ScrollingLetters(ModuleDisplay.text(letters, decoding: decoding), module: module)
            let letters = scrolling.shown(secondsAfterSent: seconds - sent.seconds)
            rows.append(DisplayWidth.fitting("\(module.rawValue)│ " + DisplayWidth.printable(letters), width: width))
        }
        if let drawn = shown.last(where: { if case .picture = $0.content { true } else { false } }),
            case .picture(let picture, let module) = drawn.content, width >= 18
        {
            // An MU's bitmap is gone once the MU would have brought its own screen back.
            let isShowing = module.pictureSeconds.map { seconds - drawn.seconds < $0 } ?? true
            if isShowing { rows += picture.halfBlockLines.map { "▕" + $0 + "▏" } }
        }
        return rows
    }
}
