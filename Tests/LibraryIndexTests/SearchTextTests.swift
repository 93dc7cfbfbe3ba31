import Testing

@testable import LibraryIndex

/// Texts folded and cut into letter pairs as the index keeps them.
struct SearchTextTests {
    @Test func letterPairs() {
        #expect(SearchText.letterPairs(of: "op.10 no.3 a") == "op 10 no 3 a")
        #expect(SearchText.letterPairs(of: "abc") == "ab bc")
        #expect(SearchText.letterPairs(of: "序曲の") == "序曲 曲の")
        #expect(SearchText.letterPairs(of: "  --  ") == "")
        #expect(SearchText.letterPairs(of: "ab 序 c@d") == "ab 序 c d")
    }

    @Test func fold() {
        #expect(SearchText.fold("Frédéric CHOPIN") == "frederic chopin")
        #expect(SearchText.fold("ＡＢＣ ﾊﾞﾗｰﾄﾞ") == "abc バラード")
        #expect(SearchText.fold("Op.10 No.3") == "op.10 no.3")
    }
}
