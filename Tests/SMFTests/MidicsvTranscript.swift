/// The output of `midicsv` (John Walker's MIDI-to-CSV translator), parsed.
///
/// Every line is one record: `track, tick, Type, values...`. Numbers are
/// decimal; strings are quoted, with `""` for a quote, `\\` for a backslash
/// and `\ooo` (three octal digits) for any byte below 0x20 or in
/// 0x7F...0xA0. Bytes 0xA1...0xFF are written as they are, so the output is
/// bytes, not UTF-8, and is parsed as such. See `midicsv(5)`.
struct MidicsvTranscript: Sendable {
    /// The header record: `0, 0, Header, format, nTracks, division`.
    var format: Int
    var trackCount: Int
    var division: Int
    /// The records of each track in file order, without `Start_track`;
    /// `End_track` is the End of Track meta event and is kept.
    var tracks: [[MidicsvRecord]]

    init(csv: [UInt8]) throws(MidicsvParseError) {
        let records = try csv.withUnsafeBufferPointer { (bytes) throws(MidicsvParseError) in try Self.records(in: bytes) }
        guard let header = records.first, header.type == "Header", header.track == 0, header.tick == 0,
            case .number(let format)? = header.values.first, header.values.count == 3,
            case .number(let trackCount) = header.values[1], case .number(let division) = header.values[2]
        else { throw MidicsvParseError(line: 1, reason: "no Header record with three numbers") }
        guard let last = records.last, last.type == "End_of_file", last.track == 0, records.count >= 2 else {
            throw MidicsvParseError(line: records.count, reason: "no End_of_file record at the end")
        }
        self.format = format
        self.trackCount = trackCount
        self.division = division
        tracks = try Self.groupTracks(records.dropFirst().dropLast(), firstLine: 2)
    }

    /// Every line's record; the output must end with a newline.
    private static func records(in bytes: UnsafeBufferPointer<UInt8>) throws(MidicsvParseError) -> [MidicsvRecord] {
        var records: [MidicsvRecord] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            var scanner = MidicsvFieldScanner(bytes: bytes, line: start..<index, lineNumber: records.count + 1)
            records.append(try scanner.record())
            start = index + 1
        }
        guard start == bytes.count else { throw MidicsvParseError(line: records.count + 1, reason: "output does not end with a newline") }
        return records
    }

    /// Splits the records between the header and `End_of_file` at each `Start_track`.
    private static func groupTracks(_ records: ArraySlice<MidicsvRecord>, firstLine: Int) throws(MidicsvParseError) -> [[MidicsvRecord]] {
        var tracks: [[MidicsvRecord]] = []
        for (offset, record) in records.enumerated() {
            let line = firstLine + offset
            if record.type == "Start_track" {
                guard record.track == tracks.count + 1, record.tick == 0, record.values.isEmpty else {
                    throw MidicsvParseError(line: line, reason: "Start_track out of sequence: \(record)")
                }
                tracks.append([])
            } else {
                guard !tracks.isEmpty else { throw MidicsvParseError(line: line, reason: "record before the first Start_track: \(record)") }
                tracks[tracks.count - 1].append(record)
            }
        }
        return tracks
    }
}

/// One line of midicsv output.
struct MidicsvRecord: Hashable, Sendable, CustomStringConvertible {
    var track: Int
    var tick: Int
    var type: String
    var values: [MidicsvValue]

    /// The record as midicsv prints it, but with every byte outside printable
    /// ASCII in octal, so that messages stay readable.
    var description: String {
        ([String(track), String(tick), type] + values.map(\.description)).joined(separator: ", ")
    }
}

/// A value after the record type: a number or a quoted string's bytes.
enum MidicsvValue: Hashable, Sendable, CustomStringConvertible {
    case number(Int)
    case text([UInt8])

    var description: String {
        switch self {
        case .number(let number): return String(number)
        case .text(let bytes):
            var escaped = "\""
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): escaped += "\"\""
                case UInt8(ascii: "\\"): escaped += "\\\\"
                case 0x20...0x7E: escaped.unicodeScalars.append(Unicode.Scalar(byte))
                default: escaped += "\\" + String(byte, radix: 8).leftPadded(to: 3)
                }
            }
            return escaped + "\""
        }
    }
}

struct MidicsvParseError: Error, CustomStringConvertible {
    var line: Int
    var reason: String
    var description: String { "midicsv output line \(line): \(reason)" }
}

private enum MidicsvScannedField {
    /// A number, or a quoted string unescaped.
    case value(MidicsvValue)
    /// An unquoted field that is not a number: a record type.
    case word(String)
}

/// Reads the comma-separated fields of one line.
private struct MidicsvFieldScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    let lineNumber: Int
    var index: Int
    var isDone = false

    init(bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>, lineNumber: Int) {
        self.bytes = bytes
        end = line.upperBound
        self.lineNumber = lineNumber
        index = line.lowerBound
    }

    /// The line as a record: `track, tick, Type`, then numbers and strings.
    mutating func record() throws(MidicsvParseError) -> MidicsvRecord {
        let start = index
        guard case .value(.number(let track))? = try next(), case .value(.number(let tick))? = try next(),
            case .word(let type)? = try next()
        else { throw failure("not `track, tick, Type`: \(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))") }
        var values: [MidicsvValue] = []
        while let field = try next() {
            guard case .value(let value) = field else { throw failure("a word among the values") }
            values.append(value)
        }
        return MidicsvRecord(track: track, tick: tick, type: type, values: values)
    }

    private mutating func next() throws(MidicsvParseError) -> MidicsvScannedField? {
        guard !isDone else { return nil }
        skipSpaces()
        let field = index < end && bytes[index] == UInt8(ascii: "\"") ? .value(.text(try quoted())) : try bare()
        skipSpaces()
        if index == end {
            isDone = true
        } else if bytes[index] == UInt8(ascii: ",") {
            index += 1
        } else {
            throw failure("unexpected byte \(bytes[index]) after a field")
        }
        return field
    }

    private func failure(_ reason: String) -> MidicsvParseError {
        MidicsvParseError(line: lineNumber, reason: reason)
    }

    private mutating func skipSpaces() {
        while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    /// An unquoted field: a decimal number (digits, perhaps after a minus) or a word.
    private mutating func bare() throws(MidicsvParseError) -> MidicsvScannedField {
        let start = index
        while index < end, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: " ") { index += 1 }
        guard start < index else { throw failure("empty field") }
        let isNegative = bytes[start] == UInt8(ascii: "-")
        guard isNegative || Self.isDigit(bytes[start]) else {
            return .word(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }
        let digits = (isNegative ? start + 1 : start)..<index
        guard !digits.isEmpty, digits.count <= 18 else { throw failure("not a number") }
        var number = 0
        for position in digits {
            guard Self.isDigit(bytes[position]) else { throw failure("not a number") }
            number = number * 10 + Int(bytes[position] - UInt8(ascii: "0"))
        }
        return .value(.number(isNegative ? -number : number))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A quoted string, from its opening quote: `""` is a quote, `\\` a
    /// backslash, `\ooo` the byte with that octal code.
    private mutating func quoted() throws(MidicsvParseError) -> [UInt8] {
        var text: [UInt8] = []
        index += 1
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard index < end, bytes[index] == UInt8(ascii: "\"") else { return text }
                text.append(byte)
                index += 1
            case UInt8(ascii: "\\"):
                text.append(try escaped())
            default:
                text.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    /// The byte after a backslash: another backslash, or three octal digits.
    private mutating func escaped() throws(MidicsvParseError) -> UInt8 {
        if index < end, bytes[index] == UInt8(ascii: "\\") {
            index += 1
            return UInt8(ascii: "\\")
        }
        guard end - index >= 3 else { throw failure("bad escape in string") }
        var value = 0
        for position in index..<index + 3 {
            let digit = bytes[position]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { throw failure("bad escape in string") }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        guard value <= 0xFF else { throw failure("bad escape in string") }
        index += 3
        return UInt8(value)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
