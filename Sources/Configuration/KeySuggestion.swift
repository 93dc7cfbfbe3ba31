/// The known key a misspelt one was most likely meant to be.
enum KeySuggestion {
    /// The closest of `known` to `key`: first a near spelling in the same table, then
    /// the same or a near name in another table (`level` at the top → `reverb.level`).
    /// Nil when nothing is close enough to be a typo rather than a different word.
    static func closest(to key: [String], among known: [[String]]) -> [String]? {
        guard let name = key.last else { return nil }
        let sameTable = known.filter { $0.dropLast() == key.dropLast() }
        for candidates in [sameTable, known] {
            if let best = NameSuggestion.closest(to: name, among: candidates.map { $0.last! }) {
                return candidates.first { $0.last == best }
            }
        }
        return nil
    }
}
