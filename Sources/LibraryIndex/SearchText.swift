import Foundation

/// Text as the index keeps it and as queries are compared with it: lower case, Latin accents
/// taken off (`Frédéric` is `frederic`), full-width letters and half-width kana made ordinary
/// (NFKC), so that what a person types finds what a file says however it was written. Japanese
/// voicing marks stay: バ and ハ are different letters, not one letter with an accent.
enum SearchText {
    static func fold(_ text: String) -> String {
        let decomposed = text.lowercased().decomposedStringWithCanonicalMapping
        var kept = String.UnicodeScalarView()
        // The combining diacritical marks block: accents of Latin, Greek and Cyrillic letters.
        for scalar in decomposed.unicodeScalars where !(0x0300...0x036F).contains(scalar.value) {
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCompatibilityMapping
    }

    /// The words of a query, folded: separated by white space; a word in quotes keeps its spaces.
    static func terms(of query: [String]) -> [String] {
        query.flatMap { argument in
            argument.split(whereSeparator: \.isWhitespace).map { fold(String($0)) }
        }.filter { !$0.isEmpty }
    }
}
