/// The line on which each key of a TOML document is first written.
///
/// Why a scanner of its own: TOMLKit 0.6.0, the latest, passes on toml++'s source positions only
/// for a parse error (`TOMLParseError.source`), not for the nodes of a document that parsed, whose
/// `node::source()` stays inside its C++ wrapper (checked in TOMLKit's sources, 2026-11-25). A value
/// that parses but is out of range would have no line without this. Reaching toml++ directly
/// would mean C++ interoperability in the package and a second copy of toml++, for messages only.
/// So error messages find their line by scanning the text again. The scan takes the grammar as
/// given and only has to tell keys from values: it follows strings (every kind), arrays, inline
/// tables, table headers and dotted keys. It also runs on text that does not parse (to name the
/// key on a syntax error's line, and before toml++ sees the text: see ``abortingError``), so
/// whatever the bytes, every step moves on and nesting deeper than toml++ reads is not followed.
struct TOMLKeyLines {
    private var lines: [[String]: Int] = [:]
    /// The first syntax error on which toml++ 3 (TOMLKit 0.6.0's parser) stops the program, on an
    /// assertion that release builds keep, instead of reporting it: a `}` where an array wants a
    /// value (`[1, }`), a table header whose key starts with no key character (`[#`, `[[[`, `[\r`,
    /// `[` alone on its line; `[ [` is toml++'s error). Such text is refused before toml++ sees
    /// it, in toml++'s words.
    private(set) var abortingError: (line: Int, column: Int, message: String)?

    init(scanning text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.scanDocument()
        lines = scanner.lines
        abortingError = scanner.abortingError
    }

    /// The line of `key`, or of the nearest table that holds it, or 1 when the scan
    /// knows neither (which valid TOML should never cause).
    func line(of key: [String]) -> Int {
        var path = key
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path.removeLast()
        }
        return 1
    }

    /// The longest key first written on `line`, if any: the key a syntax error on that line is in.
    func key(onLine line: Int) -> [String]? {
        lines.filter { $0.value == line }.keys.max { $0.count < $1.count }
    }

    /// The recorded line of exactly `key`, for tests.
    func recordedLine(of key: [String]) -> Int? {
        lines[key]
    }
}

private struct Scanner {
    /// toml++'s limit: deeper text never parses, and following it would only cost stack.
    static let maximumDepth = 256

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lines: [[String]: Int] = [:]
    var abortingError: (line: Int, column: Int, message: String)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func byte(at offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func scanDocument() {
        var table: [String] = []
        while true {
            skipBlanks(newlines: true)
            guard let byte = current else { return }
            if byte == UInt8(ascii: "[") {
                let isArrayOfTables = self.byte(at: 1) == UInt8(ascii: "[")
                index += isArrayOfTables ? 2 : 1
                let headerLine = line
                // toml++'s blanks here: not a carriage return, which no key starts with either.
                while current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") { index += 1 }
                if let first = current, first != UInt8(ascii: "]"), first != UInt8(ascii: "[") || isArrayOfTables, !Self.startsKey(first) {
                    noteAbortingError(
                        "Error while parsing table header: expected bare key starting character or string delimiter, saw '\(Self.shown(first))'")
                }
                table = scanKey()
                record(table, line: headerLine)
                skipBlanks(newlines: false)
                index += isArrayOfTables ? 2 : 1
            } else {
                scanKeyValue(in: table, depth: 0)
            }
            skipRestOfLine()
        }
    }

    /// Records `key` and every table on the way to it, keeping the first line seen,
    /// so that `[a.b]` after `[a.c]` leaves `a` on the earlier line.
    private mutating func record(_ key: [String], line: Int) {
        for end in key.indices {
            let path = Array(key[...end])
            if lines[path] == nil { lines[path] = line }
        }
    }

    /// `table` is nil inside arrays, whose inline tables have no key path of their own.
    private mutating func scanKeyValue(in table: [String]?, depth: Int) {
        let keyLine = line
        let key = scanKey()
        if let table { record(table + key, line: keyLine) }
        skipBlanks(newlines: false)
        if current == UInt8(ascii: "=") { index += 1 }
        skipBlanks(newlines: false)
        scanValue(at: table.map { $0 + key }, depth: depth)
    }

    private mutating func scanKey() -> [String] {
        var parts: [String] = []
        while true {
            skipBlanks(newlines: false)
            switch current {
            case UInt8(ascii: "\""):
                index += 1
                parts.append(scanBasicString())
            case UInt8(ascii: "'"):
                index += 1
                parts.append(scanLiteralString())
            default:
                let start = index
                while let byte = current, !Self.endsBareKey(byte) { index += 1 }
                // Nothing taken is no key (a bare key has a character at least; `""` is quoted).
                if index > start { parts.append(String(decoding: bytes[start..<index], as: UTF8.self)) }
            }
            skipBlanks(newlines: false)
            guard current == UInt8(ascii: ".") else { return parts }
            index += 1
        }
    }

    /// A bare key's characters, or a quote.
    private static func startsKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default: false
        }
    }

    /// A byte as toml++ shows it in a message.
    private static func shown(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\n"): "\\n"
        case UInt8(ascii: "\r"): "\\r"
        case UInt8(ascii: "\t"): "\\t"
        default: String(decoding: [byte], as: UTF8.self)
        }
    }

    private mutating func noteAbortingError(_ message: String) {
        if abortingError == nil { abortingError = (line, column, message) }
    }

    private static func endsBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "]"),
            UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            true
        default: false
        }
    }

    private mutating func scanValue(at key: [String]?, depth: Int) {
        switch depth < Self.maximumDepth ? current : nil {
        case UInt8(ascii: "\""):
            if byte(at: 1) == UInt8(ascii: "\""), byte(at: 2) == UInt8(ascii: "\"") {
                index += 3
                skipMultilineString(quote: UInt8(ascii: "\""), escapes: true)
            } else {
                index += 1
                _ = scanBasicString()
            }
        case UInt8(ascii: "'"):
            if byte(at: 1) == UInt8(ascii: "'"), byte(at: 2) == UInt8(ascii: "'") {
                index += 3
                skipMultilineString(quote: UInt8(ascii: "'"), escapes: false)
            } else {
                index += 1
                _ = scanLiteralString()
            }
        case UInt8(ascii: "["):
            index += 1
            while true {
                skipBlanks(newlines: true)
                guard let byte = current else { return }
                if byte == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                if byte == UInt8(ascii: "}") {
                    noteAbortingError("Error while parsing array: expected value or closing ']', saw '}'")
                    index += 1
                } else if byte == UInt8(ascii: ",") {
                    index += 1
                } else {
                    scanOneStep { $0.scanValue(at: nil, depth: depth + 1) }
                }
            }
        case UInt8(ascii: "{"):
            index += 1
            while true {
                skipBlanks(newlines: true)
                guard let byte = current else { return }
                if byte == UInt8(ascii: "}") {
                    index += 1
                    return
                }
                if byte == UInt8(ascii: ",") {
                    index += 1
                } else {
                    scanOneStep { $0.scanKeyValue(in: key, depth: depth + 1) }
                }
            }
        default:
            // Numbers, booleans and dates. A date may hold a space ("1979-05-27 07:32:00"),
            // so the value runs to whatever can follow a value, not to the next blank.
            while let byte = current {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "\n"): return
                default: index += 1
                }
            }
        }
    }

    /// Runs `scan`, and moves past a byte it could not take (`]` in an inline table, say), so that
    /// a loop over an array's or inline table's items always ends.
    private mutating func scanOneStep(_ scan: (inout Scanner) -> Void) {
        let start = index
        scan(&self)
        if index == start { index += 1 }
    }

    /// The column of the byte at `index`, in characters from 1.
    private var column: Int {
        let lineStart = bytes[..<index].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
    }

    /// After the opening quote; returns the decoded text (keys may be quoted).
    private mutating func scanBasicString() -> String {
        var text: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                text += scanEscape()
            default:
                text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// After the backslash.
    private mutating func scanEscape() -> [UInt8] {
        guard let byte = current else { return [] }
        index += 1
        switch byte {
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "e"): return [0x1B]
        case UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "x"):
            let digits = byte == UInt8(ascii: "u") ? 4 : byte == UInt8(ascii: "U") ? 8 : 2
            let end = min(index + digits, bytes.count)
            let hex = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return [] }
            return Array(String(Character(scalar)).utf8)
        case UInt8(ascii: "\n"):
            // A line-ending backslash in a multi-line string.
            line += 1
            return []
        default:
            return [byte]
        }
    }

    private mutating func scanLiteralString() -> String {
        let start = index
        while let byte = current, byte != UInt8(ascii: "'") { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if current != nil { index += 1 }
        return text
    }

    /// After the three opening quotes. The closing run may hold up to two more quotes
    /// that belong to the string (`""""quoted""""`).
    private mutating func skipMultilineString(quote: UInt8, escapes: Bool) {
        while let byte = current {
            if byte == quote, self.byte(at: 1) == quote, self.byte(at: 2) == quote {
                while current == quote { index += 1 }
                return
            }
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
            } else if escapes, byte == UInt8(ascii: "\\") {
                _ = scanEscape()
            }
        }
    }

    private mutating func skipBlanks(newlines: Bool) {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n") where newlines:
                index += 1
                line += 1
            case UInt8(ascii: "#") where newlines:
                skipComment()
            default:
                return
            }
        }
    }

    private mutating func skipComment() {
        while let byte = current, byte != UInt8(ascii: "\n") { index += 1 }
    }

    private mutating func skipRestOfLine() {
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                return
            }
        }
    }
}
