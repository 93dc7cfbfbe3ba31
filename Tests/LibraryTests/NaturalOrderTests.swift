import Foundation
import TestSupport
import Testing

@testable import Library

struct NaturalOrderTests {
    /// The rules as first written, comparing runs of text and digits as strings: the key's bytes
    /// must order every pair of names as they do. (Not names with Japanese sound marks apart from
    /// their kana, as macOS writes them: Swift's strings do not order those consistently, see
    /// `japaneseNFDNamesSortAsNFC`.)
    enum Rules {
        enum Run: Comparable {
            case number(digits: Substring)
            case text(Substring)

            static func < (lhs: Run, rhs: Run) -> Bool {
                switch (lhs, rhs) {
                case (.number(let a), .number(let b)):
                    let x = a.drop { $0 == "0" }
                    let y = b.drop { $0 == "0" }
                    return x.count != y.count ? x.count < y.count : x != y ? x < y : a.count < b.count
                case (.number, .text): return true
                case (.text, .number): return false
                case (.text(let a), .text(let b)): return a < b
                }
            }
        }

        static func runs(_ name: String) -> [Run] {
            let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            var runs: [Run] = []
            var rest = Substring(folded)
            while let first = rest.first {
                let isDigit = first.isASCII && first.isNumber
                let run = rest.prefix { ($0.isASCII && $0.isNumber) == isDigit }
                runs.append(isDigit ? .number(digits: run) : .text(run))
                rest = rest.dropFirst(run.count)
            }
            return runs
        }

        static func precedes(_ a: String, _ b: String) -> Bool {
            let (x, y) = (runs(a), runs(b))
            for (p, q) in zip(x, y) where p != q { return p < q }
            if x.count != y.count { return x.count < y.count }
            return a < b
        }
    }

    static let names = [
        "op.10 no.02.mid", "Op.10 No.2.mid", "op.9 No.2.mid", "Op.9 No.10.mid", "12 etudes", "12 Études", "track 7", "track 007",
        "track 07", "", "no digits", "No Digits", "a1b22c333", "line\r\nbreak 5", "007", "7", "0", "00", "Étude.mid", "Etude.mid",
        "etude.mid", "Zeta.mid", "Gymnop\u{E9}die 2.mid", "Gymnope\u{301}die 2.mid", "Gymnopédie 10.mid", "ショパン", "ショパン 2",
        "ショパン 10", "夜想曲 第2番", "夜想曲 第10番", "a\u{1}b", "ab", "a", "abc", "99999999999999999999", "100000000000000000000",
        "x99999999999999999999y", "Ballade No.1", "Ballade No.1a", "Ballade No.1 b", "ＡＢＣ１２", "abc12", "ß", "ss", "Straße 2", "strasse 2",
    ]

    @Test("the key's bytes order every pair of names as the rules do")
    func keyOrdersAsTheRules() {
        var generator = SeededRandom(seed: 0x0DE4)
        let pieces = ["a", "B", "é", "e\u{301}", "0", "00", "1", "9", "10", " ", ".", "ノ", "曲", "Z", "-", "か", "が", "ﾊﾞ", "Å", "A\u{30A}"]
        let random = (0..<300).map { _ in
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        let all = Self.names + random
        for a in all {
            for b in all {
                #expect(NaturalOrder.precedes(a, b) == Rules.precedes(a, b), "\(a.debugDescription) \(b.debugDescription)")
            }
        }
    }

    /// The scalars a key takes as they are, without Foundation: each, alone and among others,
    /// comes out of Foundation's folding (case and accents; ASCII only lowercased) and of NFC as it
    /// went in.
    @Test func scalarsTakenAsTheyAreAreLeftSoByFoundation() {
        let nfcStable = (0..<0x1_0000).compactMap(Unicode.Scalar.init).filter(NaturalOrder.Key.isLeftAsIsByNFC)
        let foldStable = nfcStable.filter(NaturalOrder.Key.isKeptByFolding)
        #expect(foldStable.count > 20_000 && foldStable.allSatisfy(NaturalOrder.Key.isLeftAsIsByNFC))
        func lowercasedASCII(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value | 0x20)! : $0 }))
        }
        var generator = SeededRandom(seed: 0xF01D)
        func mixes(of scalars: [Unicode.Scalar]) -> [String] {
            scalars.map { String($0) }
                + (0..<2_000).map { _ in
                    String(
                        String.UnicodeScalarView(
                            (0..<Int.random(in: 1...8, using: &generator)).map { _ in scalars.randomElement(using: &generator)! }))
                }
        }
        for text in mixes(of: foldStable) {
            let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            #expect(
                Array(folded.unicodeScalars) == Array(lowercasedASCII(text).unicodeScalars),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for text in mixes(of: nfcStable) {
            #expect(
                Array(text.precomposedStringWithCanonicalMapping.unicodeScalars) == Array(text.unicodeScalars),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// A name typed on macOS (NFD) and the same name from Linux (NFC) are the same
    /// name: neither precedes the other, and each sorts where the other would.
    @Test func nfcAndNFDNamesSortAndMatchAlike() {
        let nfc = "Gymnop\u{E9}die 2.mid"
        let nfd = "Gymnope\u{301}die 2.mid"
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        #expect(!NaturalOrder.precedes(nfc, nfd))
        #expect(!NaturalOrder.precedes(nfd, nfc))
        let others = ["Gymnopédie 10.mid", "Gymnopédie 1.mid", "Gymnasium.mid", "Zeta.mid"]
        let withNFC = (others + [nfc]).sorted(by: NaturalOrder.precedes)
        let withNFD = (others + [nfd]).sorted(by: NaturalOrder.precedes)
        #expect(withNFC.firstIndex(of: nfc) == 2)
        #expect(withNFD.firstIndex(of: nfd) == 2)
        #expect(withNFC == withNFD)
    }

    /// Japanese names from macOS keep their sound marks apart from their kana (NFD: か and U+3099
    /// for が); from Linux, composed (NFC). They are the same name and sort alike. (Swift's own
    /// comparison of strings takes "か\u{3099}" and "がa-a" for equal, and the rules as first
    /// written, comparing text runs as strings, sorted such names inconsistently.)
    @Test func japaneseNFDNamesSortAsNFC() {
        let nfc = "\u{304C}\u{30C3}\u{30B3}\u{3046} 2.mid"
        let nfd = "\u{304B}\u{3099}\u{30C3}\u{30B3}\u{3046} 2.mid"
        #expect(!NaturalOrder.precedes(nfc, nfd) && !NaturalOrder.precedes(nfd, nfc))
        let others = ["\u{304C}\u{30C3}\u{30B3}\u{3046} 10.mid", "\u{304B}\u{3099}a-a.mid", "\u{304B}.mid", "\u{304C}a.mid", "a.mid"]
        let withNFC = (others + [nfc]).sorted(by: NaturalOrder.precedes)
        let withNFD = (others + [nfd]).sorted(by: NaturalOrder.precedes)
        #expect(withNFC.map { $0.precomposedStringWithCanonicalMapping } == withNFD.map { $0.precomposedStringWithCanonicalMapping })
        #expect(withNFC.firstIndex(of: nfc) == withNFD.firstIndex(of: nfd))
        #expect(Array(withNFC.map { $0.precomposedStringWithCanonicalMapping }.prefix(2)) == ["a.mid", "\u{304B}.mid"])
        #expect(NaturalOrder.precedes("\u{304B}\u{3099}", "\u{304C}a-a") && !NaturalOrder.precedes("\u{304C}a-a", "\u{304B}\u{3099}"))
    }
}
