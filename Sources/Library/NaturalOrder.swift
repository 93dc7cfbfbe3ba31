import Foundation

/// The order people expect names in: numbers by value (`Op.9` before `Op.10`),
/// letters without regard to case or accents (`Étude` among the E's), and
/// names that differ only in Unicode normalization (NFC from Linux, NFD from
/// macOS) as equal.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let left = chunks(of: a)
        let right = chunks(of: b)
        for (x, y) in zip(left, right) where x != y {
            return x < y
        }
        if left.count != right.count { return left.count < right.count }
        // Names equal by these rules still need a fixed order.
        return a < b
    }

    private enum Chunk: Comparable {
        case number(digits: Substring)
        case text(String)

        static func < (lhs: Chunk, rhs: Chunk) -> Bool {
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

    private static func chunks(of name: String) -> [Chunk] {
        var result: [Chunk] = []
        var rest = Substring(name)
        while let first = rest.first {
            let isDigit = first.isASCII && first.isNumber
            let run = rest.prefix { ($0.isASCII && $0.isNumber) == isDigit }
            result.append(isDigit ? .number(digits: run) : .text(run.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)))
            rest = rest.dropFirst(run.count)
        }
        return result
    }
}
