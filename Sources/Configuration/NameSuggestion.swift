/// The known name a misspelt one was most likely meant to be: a configuration key, a command,
/// a SoundFont.
public enum NameSuggestion {
    /// The closest of `known` to `name`, ignoring case; nil when nothing is close enough to be a
    /// typo rather than a different word (one edit for names of up to 4 letters, else two).
    public static func closest(to name: String, among known: [String]) -> String? {
        let name = name.lowercased()
        guard let best = known.min(by: { editDistance(name, $0.lowercased()) < editDistance(name, $1.lowercased()) }),
            editDistance(name, best.lowercased()) <= allowedEdits(for: name)
        else { return nil }
        return best
    }

    /// How far a typo of `name` may be from what was meant.
    static func allowedEdits(for name: String) -> Int {
        name.count <= 4 ? 1 : 2
    }

    /// Levenshtein distance counting a swap of neighbours as one edit, the usual typo.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
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
