import Foundation

/// Text as the index keeps it and as queries are compared with it: lower case, Latin accents
/// taken off (`Frédéric` is `frederic`), full-width letters and half-width kana made ordinary
/// (NFKC), so that what a person types finds what a file says however it was written. Japanese
/// voicing marks stay: バ and ハ are different letters, not one letter with an accent.
enum SearchText {
    static func fold(_ text: String) -> String {
        // ASCII is its own decomposition and composition: lower case is all it needs. Kana and
        // kanji (most of the names of a Japanese collection) and accented Latin are folded a
        // letter at a time; the rest goes through Foundation.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return foldedLetterByLetter(text) ?? foldedByFoundation(text)
    }

    /// The Latin-1 Supplement and Latin Extended-A (U+00C0–U+017F: the accented letters of
    /// French, German, Polish, Czech…), each folded on its own by Foundation, once.
    private static let latinFolds: [String] = (0xC0...0x17F).map { foldedByFoundation(String(Unicode.Scalar(UInt32($0))!)) }

    /// `text` folded a letter at a time when each is ASCII, left as it is (kana, kanji) or in
    /// ``latinFolds``: such letters fold on their own as they fold among others (none combines
    /// with its neighbours; SearchTextTests checks it against Foundation), and Foundation's
    /// normalizations cost more than the rest of a file's row. Nil for any other text.
    static func foldedLetterByLetter(_ text: String) -> String? {
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                folded.unicodeScalars.append(Unicode.Scalar((0x41...0x5A).contains(byte) ? byte | 0x20 : byte))
            } else if isLeftAsIsByFolding(scalar) {
                folded.unicodeScalars.append(scalar)
            } else if (0xC0...0x17F).contains(scalar.value) {
                folded += latinFolds[Int(scalar.value) - 0xC0]
            } else {
                return nil
            }
        }
        return folded
    }

    /// ASCII, and the kana and kanji (with the Japanese punctuation and iteration marks) that NFD,
    /// lower case and NFKC leave as they are wherever they stand: not the ideographic space, the
    /// circled postal mark, the Hangzhou numerals, the spacing sound marks and the digraphs, which
    /// NFKC changes, nor the combining sound marks (SearchTextTests checks each against Foundation).
    static func isLeftAsIsByFolding(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x80, 0x3001..<0x302A, 0x3030..<0x3036, 0x3037, 0x303B..<0x3099, 0x309D..<0x309F, 0x30A0..<0x30FF, 0x3400..<0x4DC0, 0x4E00..<0xA000:
            true
        default: false
        }
    }

    /// Folding as its rules say, through Foundation's normalizations.
    static func foldedByFoundation(_ text: String) -> String {
        let decomposed = text.lowercased().decomposedStringWithCanonicalMapping
        var kept = String.UnicodeScalarView()
        // The combining diacritical marks block: accents of Latin, Greek and Cyrillic letters.
        for scalar in decomposed.unicodeScalars where !(0x0300...0x036F).contains(scalar.value) {
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCompatibilityMapping
    }

    /// The words of a query, folded: separated by white space, without the punctuation around
    /// each (`"Ballade",`, `(Chopin)` and `「幻想」` are typed in sentences and pasted with their
    /// quotes; `op.10` keeps its own). A word of nothing but punctuation (`★★★`) is kept whole.
    static func terms(of query: [String]) -> [String] {
        query.flatMap { argument in
            argument.split(whereSeparator: \.isWhitespace).map { word in
                let folded = fold(String(word))
                guard let first = folded.firstIndex(where: isLetterOrDigit), let last = folded.lastIndex(where: isLetterOrDigit) else {
                    return folded
                }
                return String(folded[first...last])
            }
        }.filter { !$0.isEmpty }
    }

    /// Each run of letters and digits as its overlapping pairs, a word each ("序曲の" gives
    /// "序曲 曲の"; a run of one letter stays one word): a word of one or two letters is then found
    /// as a whole word, or as the start of one.
    static func letterPairs(of text: String) -> String {
        var text = text
        // ASCII (most names) on its bytes: each is a letter of its own, with no grapheme breaking
        // (the index cuts a million texts).
        if let pairs = text.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? letterPairs(ofLetters: bytes) : nil }) { return pairs }
        return letterPairs(ofLetters: text)
    }

    /// The pairs of the letters of `letters`, whichever their kind (bytes of ASCII or characters).
    static func letterPairs<Letters: Sequence>(ofLetters letters: Letters) -> String where Letters.Element: SearchLetter {
        // Into one buffer of UTF-8, in one pass over the letters, without an array of runs or
        // strings between.
        var pairs: [UInt8] = []
        pairs.reserveCapacity(letters.underestimatedCount * 3)
        func add(_ first: Letters.Element, _ second: Letters.Element? = nil) {
            if !pairs.isEmpty { pairs.append(UInt8(ascii: " ")) }
            first.appendUTF8(to: &pairs)
            second?.appendUTF8(to: &pairs)
        }
        /// The run's last letter, and whether it is the run's only one.
        var previous: (letter: Letters.Element, isAlone: Bool)?
        for letter in letters {
            if letter.isLetterOrDigit {
                if let previous { add(previous.letter, letter) }
                previous = (letter, previous == nil)
            } else {
                if let previous, previous.isAlone { add(previous.letter) }
                previous = nil
            }
        }
        if let previous, previous.isAlone { add(previous.letter) }
        return String(decoding: pairs, as: UTF8.self)
    }

    /// An ASCII byte that is a letter or digit.
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte)
    }

    /// Letters and digits as SQLite's unicode61 tokenizer counts them (categories L and N).
    static func isLetterOrDigit(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return isLetterOrDigit(ascii) }
        return character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
                true
            default:
                false
            }
        }
    }
}

/// A letter of a text cut into pairs (see ``SearchText/letterPairs(of:)``): a byte of ASCII, or a
/// character.
protocol SearchLetter {
    var isLetterOrDigit: Bool { get }
    func appendUTF8(to bytes: inout [UInt8])
}

extension UInt8: SearchLetter {
    var isLetterOrDigit: Bool { SearchText.isLetterOrDigit(self) }
    func appendUTF8(to bytes: inout [UInt8]) { bytes.append(self) }
}

extension Character: SearchLetter {
    var isLetterOrDigit: Bool { SearchText.isLetterOrDigit(self) }
    func appendUTF8(to bytes: inout [UInt8]) { bytes.append(contentsOf: utf8) }
}
