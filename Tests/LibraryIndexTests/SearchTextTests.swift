import TestSupport
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

    /// ASCII is cut on its bytes, as its characters are cut ("\r\n" is one character).
    @Test func termsAreWordsWithoutThePunctuationAroundThem() {
        #expect(
            SearchText.terms(of: ["\"Ballade\",", "(Chopin)", "Op.10", "「幻想」", "★★★", "-", "  a  b "])
                == ["ballade", "chopin", "op.10", "幻想", "★★★", "-", "a", "b"])
    }

    @Test func asciiIsCutAsItsCharactersAre() {
        let letters = Array("aZ09 .-_\r\n\t/")
        var generator = SeededRandom(seed: 0x1A71)
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            #expect(SearchText.letterPairs(of: text) == SearchText.letterPairs(ofLetters: text), "\(Array(text.utf8))")
        }
    }

    @Test func fold() {
        #expect(SearchText.fold("Frédéric CHOPIN") == "frederic chopin")
        #expect(SearchText.fold("ＡＢＣ ﾊﾞﾗｰﾄﾞ") == "abc バラード")
        #expect(SearchText.fold("Op.10 No.3") == "op.10 no.3")
    }

    /// Texts of ASCII, kana and kanji skip Foundation's normalizations: each such scalar, alone
    /// and among others, folds as Foundation folds it.
    @Test func kanaAndKanjiFoldAsFoundationFolds() {
        let scalars = (0..<0xA000).compactMap(Unicode.Scalar.init).filter(SearchText.isLeftAsIsByFolding)
        #expect(scalars.count > 20_000)
        for scalar in scalars where scalar.value >= 0x80 {
            let text = String(scalar)
            #expect(SearchText.fold(text) == SearchText.foldedByFoundation(text), "U+\(String(scalar.value, radix: 16))")
        }
        var generator = SeededRandom(seed: 0x1A72)
        for _ in 0..<2_000 {
            let text = String(
                String.UnicodeScalarView((0..<Int.random(in: 1...8, using: &generator)).map { _ in scalars.randomElement(using: &generator)! }))
            #expect(SearchText.fold(text) == SearchText.foldedByFoundation(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(SearchText.fold("ショパン 夜想曲 第2番 Op.9") == "ショパン 夜想曲 第2番 op.9")
        // Outside the set: what NFKC changes.
        #expect(SearchText.fold("か\u{3099}\u{3000}\u{309B}") == "が  \u{3099}")
    }

    /// Texts of ASCII, kana, kanji and the accented Latin letters (U+00C0–U+017F) are folded a
    /// letter at a time: each such letter, alone and among others, folds as Foundation folds it.
    @Test func latinLettersFoldAsFoundationFolds() {
        let latin = (0xC0...0x17F).compactMap(Unicode.Scalar.init)
        let others = (0..<0xA000).compactMap(Unicode.Scalar.init).filter(SearchText.isLeftAsIsByFolding)
        for scalar in latin {
            let text = String(scalar)
            #expect(SearchText.foldedLetterByLetter(text) == SearchText.foldedByFoundation(text), "U+\(String(scalar.value, radix: 16))")
        }
        var generator = SeededRandom(seed: 0x1A73)
        for _ in 0..<3_000 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 1...10, using: &generator)).map { _ in
                        Bool.random(using: &generator) ? latin.randomElement(using: &generator)! : others.randomElement(using: &generator)!
                    }))
            #expect(SearchText.fold(text) == SearchText.foldedByFoundation(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(SearchText.fold("Frédéric CHOPIN – Études, Op. 10") == "frederic chopin – etudes, op. 10")
        #expect(SearchText.foldedLetterByLetter("Σ") == nil)
    }
}
