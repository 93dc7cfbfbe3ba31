import SMF

/// The lyrics of the song playing as the play view shows them: the line being sung, the part
/// already sung highlighted, and the next line below it, each wrapped to the screen's width by
/// the columns its characters take (a kanji or kana takes two).
struct LyricsView {
    let lyrics: Lyrics
    /// The most rows the line being sung takes, and the next line.
    static let currentRowLimit = 3
    static let nextRowLimit = 2

    /// The rows at `seconds` into the song (as heard), `width` columns wide: the sung part in bold,
    /// and in the highlight colour when colours are wanted; the next line dimmed. Empty for a
    /// song without lyrics.
    func rows(atSeconds seconds: Double, width: Int, colours: Bool) -> [String] {
        guard !lyrics.isEmpty, width > 0 else { return [] }
        let lines = lyrics.lines
        let index = Self.lineIndex(in: lines, atSeconds: seconds)
        var rows: [String] = []
        if let index {
            let line = lines[index]
            var characters: [(Character, sung: Bool)] = []
            for syllable in line.syllables {
                let sung = syllable.seconds <= seconds
                characters += DisplayWidth.printable(syllable.text).map { ($0, sung) }
            }
            let wrapped = Self.wrap(Self.trimmed(characters), width: width, rowLimit: Self.currentRowLimit)
            rows += wrapped.map { Self.styled($0, colours: colours) }
        } else {
            rows.append("")
        }
        let next = (index.map { $0 + 1 } ?? 0)
        if lines.indices.contains(next) {
            let characters = DisplayWidth.printable(lines[next].text).map { ($0, sung: false) }
            rows += Self.wrap(characters, width: width, rowLimit: Self.nextRowLimit).map { "\u{1B}[2m" + String($0.map(\.0)) + "\u{1B}[0m" }
        }
        return rows
    }

    /// The last line whose first syllable is sung at or before `seconds` (a binary search: a file
    /// may hold many thousands of lines, and the view asks 25 times a second).
    static func lineIndex(in lines: [Lyrics.Line], atSeconds seconds: Double) -> Int? {
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].seconds <= seconds { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Without the spaces at the ends of the line (a syllable may bring them).
    private static func trimmed(_ characters: [(Character, sung: Bool)]) -> [(Character, sung: Bool)] {
        Array(characters.drop { $0.0 == " " }.reversed().drop { $0.0 == " " }.reversed())
    }

    /// The first `rowLimit` rows of at most `width` columns, broken after the last space that fits,
    /// or where the row is full when it has none (Japanese lines have no spaces).
    static func wrap(_ characters: [(Character, sung: Bool)], width: Int, rowLimit: Int) -> [[(Character, sung: Bool)]] {
        var rows: [[(Character, sung: Bool)]] = []
        var row: [(Character, sung: Bool)] = []
        var used = 0
        for item in characters {
            if rows.count == rowLimit { return rows }
            let columns = DisplayWidth.columns(of: item.0)
            if used + columns > width, !row.isEmpty {
                if let space = row.lastIndex(where: { $0.0 == " " }), space > 0 {
                    rows.append(Array(row[..<space]))
                    row = Array(row[(space + 1)...])
                } else {
                    rows.append(row)
                    row = []
                }
                used = row.reduce(0) { $0 + DisplayWidth.columns(of: $1.0) }
            }
            if row.isEmpty, item.0 == " " { continue }
            row.append(item)
            used += columns
        }
        if !row.isEmpty, rows.count < rowLimit { rows.append(row) }
        return rows
    }

    /// A row with its sung part in bold (and the highlight colours).
    private static func styled(_ row: [(Character, sung: Bool)], colours: Bool) -> String {
        let sung = String(row.prefix { $0.sung }.map(\.0))
        let rest = String(row.drop { $0.sung }.map(\.0))
        guard !sung.isEmpty else { return rest }
        return (colours ? "\u{1B}[1;38;5;16;48;5;214m" : "\u{1B}[1m") + sung + "\u{1B}[0m" + rest
    }
}
