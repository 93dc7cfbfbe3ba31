/// The known key a misspelt one was most likely meant to be.
enum KeySuggestion {
    /// The closest of `known` to `key`: first a near spelling in the same table, then
    /// the same or a near name in another table (`level` at the top → `reverb.level`).
    /// Nil when nothing is close enough to be a typo rather than a different word.
    static func closest(to key: [String], among known: [[String]]) -> [String]? {
        guard let name = key.last?.lowercased() else { return nil }
        let table = key.dropLast()
        let limit = name.count <= 4 ? 1 : 2
        func distance(_ candidate: [String]) -> Int { editDistance(name, candidate.last!.lowercased()) }
        let sameTable = known.filter { $0.dropLast() == table }
        if let best = sameTable.min(by: { distance($0) < distance($1) }), distance(best) <= limit { return best }
        if let best = known.min(by: { distance($0) < distance($1) }), distance(best) <= limit { return best }
        return nil
    }

    /// Levenshtein distance counting a swap of neighbours as one edit, the usual typo.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
