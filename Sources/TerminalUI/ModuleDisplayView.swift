import SMF

/// What the song playing writes on its sound module's screen, as the play view shows it: the
/// letters last sent (`GS│ Welcome…`), and the Sound Canvas's dot picture once one is drawn, in
/// half blocks (8 rows of 16 columns), both as they stand at the time heard.
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
        if case .text(let letters, let module)? = shown.last(where: { if case .text = $0.content { true } else { false } })?.content {
            rows.append(
                DisplayWidth.fitting("\(module.rawValue)│ " + DisplayWidth.printable(ModuleDisplay.text(letters, decoding: decoding)), width: width))
        }
        if case .picture(let picture)? = shown.last(where: { if case .picture = $0.content { true } else { false } })?.content, width >= 18 {
            rows += picture.halfBlockLines.map { "▕" + $0 + "▏" }
        }
        return rows
    }
}
