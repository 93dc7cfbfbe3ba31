import Foundation

/// The order people expect names in: numbers by value (`Op.9` before `Op.10`),
/// letters without regard to case or accents (`Étude` among the E's), and
/// names that differ only in Unicode normalization (NFC from Linux, NFD from
/// macOS) as equal.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        Key(a) < Key(b)
    }

    /// `items` sorted by their names. Each name is folded once, not at each of the
    /// n log n comparisons: that makes a folder of thousands of files list in
    /// milliseconds rather than seconds.
    public static func sorted<Item>(_ items: [Item], byName name: (Item) -> String) -> [Item] {
        let keys = items.map { Key(name($0)) }
        return items.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] }
    }

    /// A name's place in the order.
    struct Key: Comparable {
        let chunks: [Chunk]
        let name: String

        init(_ name: String) {
            self.name = name
            // Folded whole, once (folding leaves ASCII digits alone); ASCII names,
            // the most common, need only lowercasing, which is many times faster.
            let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
            let folded = isASCII ? name.lowercased() : name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            chunks = isASCII ? Self.chunks(ofASCII: folded) : Self.chunks(of: folded)
        }

        /// Runs of ASCII digits and runs of anything else.
        static func chunks(of folded: String) -> [Chunk] {
            var chunks: [Chunk] = []
            var rest = Substring(folded)
            while let first = rest.first {
                let isDigit = first.isASCII && first.isNumber
                let run = rest.prefix { ($0.isASCII && $0.isNumber) == isDigit }
                chunks.append(isDigit ? .number(digits: run) : .text(run))
                rest = rest.dropFirst(run.count)
            }
            return chunks
        }

        /// The same runs, of an ASCII name, cut by its bytes: no letter is then found by the rules
        /// of Unicode's characters (the index sorts a hundred thousand names).
        static func chunks(ofASCII folded: String) -> [Chunk] {
            var chunks: [Chunk] = []
            let bytes = folded.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let isDigit = isASCIIDigit(bytes[start])
                var end = bytes.index(after: start)
                while end < bytes.endIndex, isASCIIDigit(bytes[end]) == isDigit { end = bytes.index(after: end) }
                chunks.append(isDigit ? .number(digits: folded[start..<end]) : .text(folded[start..<end]))
                start = end
            }
            return chunks
        }

        private static func isASCIIDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        static func < (lhs: Key, rhs: Key) -> Bool {
            for (x, y) in zip(lhs.chunks, rhs.chunks) where x != y {
                return x < y
            }
            if lhs.chunks.count != rhs.chunks.count { return lhs.chunks.count < rhs.chunks.count }
            // Names equal by these rules still need a fixed order.
            return lhs.name < rhs.name
        }
    }

    enum Chunk: Comparable {
        case number(digits: Substring)
        case text(Substring)

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
}
