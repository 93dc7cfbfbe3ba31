/// A line made of whole pieces chosen by importance: the most important that fit the width, shown
/// in their own order, none cut in the middle (the hint line's keys, the time line's facts). A
/// line cut at its end loses what comes last, however much it matters.
enum LinePieces {
    static let separator = "  "

    /// The pieces kept, in their order, joined by two spaces; `rank` 0 is the most wanted, and of
    /// pieces of one rank the earlier. A piece that does not fit leaves room for a less wanted
    /// one that does.
    static func fitting(_ pieces: [(text: String, rank: Int)], width: Int) -> String {
        let byImportance = pieces.indices.sorted { (pieces[$0].rank, $0) < (pieces[$1].rank, $1) }
        var kept = Set<Int>()
        var used = 0
        for index in byImportance {
            let added = DisplayWidth.columns(of: pieces[index].text) + (kept.isEmpty ? 0 : separator.count)
            guard used + added <= width else { continue }
            kept.insert(index)
            used += added
        }
        return pieces.indices.filter(kept.contains).map { pieces[$0].text }.joined(separator: separator)
    }
}
