import TOMLKit

/// The settings of one table. A table the file does not have reads as empty, so
/// every setting in it keeps its default.
final class TableReader {
    unowned let document: DocumentReader
    /// The dotted path of this table: empty for the file's top level.
    let key: [String]
    private let table: TOMLTable?
    private(set) var knownKeys: [String] = []

    init(document: DocumentReader, key: [String], table: TOMLTable?) {
        self.document = document
        self.key = key
        self.table = table
        document.register(self)
    }

    var unreadKeys: [String] {
        guard let table else { return [] }
        return table.keys.filter { !knownKeys.contains($0) }
    }

    /// The line a setting of this table is on, for messages about it.
    func line(of name: String) -> Int {
        document.keyLines.line(of: key + [name])
    }

    /// Whether the file sets `name` in this table.
    func contains(_ name: String) -> Bool {
        table?[name] != nil
    }

    /// Reads one setting. `convert` returns nil for a value that is not allowed, which
    /// is reported with `expected` ("a number from 0 to 1") and leaves `defaultValue`.
    /// (For an optional setting, `convert` returns `.some(nil)` to accept a value
    /// that means "not set".)
    func read<Value>(
        _ name: String,
        default defaultValue: Value,
        expected: String,
        _ convert: (TOMLValueConvertible) -> Value?
    ) -> Value {
        guard let value = lookUp(name) else { return defaultValue }
        if let converted = convert(value) { return converted }
        reportInvalid(name, expected: expected, found: TOMLValueDescription.describe(value))
        return defaultValue
    }

    /// The value of a known key, if the file sets it.
    private func lookUp(_ name: String) -> TOMLValueConvertible? {
        if !knownKeys.contains(name) { knownKeys.append(name) }
        return table?[name]
    }

    func reportInvalid(_ name: String, expected: String, found: String) {
        document.report(
            .invalidValue(
                path: document.path,
                line: line(of: name),
                key: KeyPath.display(key + [name]),
                expected: expected,
                found: found
            ))
    }

    /// The reader of a nested table such as `[reverb]`.
    func table(_ name: String) -> TableReader {
        var nested: TOMLTable?
        if let value = lookUp(name) {
            nested = value.table
            if nested == nil {
                reportInvalid(name, expected: "a table such as [\(KeyPath.display(key + [name]))]", found: TOMLValueDescription.describe(value))
            }
        }
        return TableReader(document: document, key: key + [name], table: nested)
    }
}

// MARK: - Typed settings

// A reader without a default returns nil when the table does not set the key, or sets it to a
// value it reports: a folder's `.smfplay.toml` leaves a key it does not set to the files above
// it. The forms with a default are the configuration file's, where every key has one.
extension TableReader {
    func number(_ name: String, in range: ClosedRange<Double>) -> Double? {
        read(name, default: nil, expected: "a number from \(NumberText.format(range.lowerBound)) to \(NumberText.format(range.upperBound))") {
            value in
            guard let number = value.double ?? value.int.map(Double.init), range.contains(number) else { return nil }
            return number
        }
    }

    func number(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>) -> Double {
        number(name, in: range) ?? defaultValue
    }

    func wholeNumber(_ name: String, in range: ClosedRange<Int>) -> Int? {
        read(name, default: nil, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") { value in
            guard let number = Self.wholeNumber(value), range.contains(number) else { return nil }
            return number
        }
    }

    func wholeNumber(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Int {
        wholeNumber(name, in: range) ?? defaultValue
    }

    /// An integer, or a float with nothing after the point (`44100.0`), which people
    /// write and mean as the same number.
    static func wholeNumber(_ value: TOMLValueConvertible) -> Int? {
        if let int = value.int { return int }
        guard let double = value.double, double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    func flag(_ name: String) -> Bool? {
        read(name, default: nil, expected: "true or false") { $0.bool }
    }

    func flag(_ name: String, default defaultValue: Bool) -> Bool {
        flag(name) ?? defaultValue
    }

    func choice<Choice: CaseIterable & Equatable & RawRepresentable<String>>(
        _ name: String, default defaultValue: Choice, among choices: [Choice] = Array(Choice.allCases)
    )
        -> Choice
    {
        read(name, default: defaultValue, expected: Self.alternatives(choices.map(\.rawValue))) { value in
            value.string.flatMap(Choice.init(rawValue:)).flatMap { choices.contains($0) ? $0 : nil }
        }
    }

    /// `"a", "b" or "c"`.
    static func alternatives(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
