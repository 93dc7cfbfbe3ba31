import TOMLKit

/// A value from the file, written back as TOML for error messages, so that the
/// person sees what they typed (`"loud"`, `1.5`, `true`) or what kind of thing it is.
enum TOMLValueDescription {
    /// Long strings are cut: the message must stay one readable line.
    static let maximumStringLength = 40

    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string:
            let text = value.string ?? ""
            return quoted(text.count > maximumStringLength ? text.prefix(maximumStringLength) + "…" : text)
        case .int: return value.int.map(String.init) ?? "an integer"
        case .double: return value.double.map(NumberText.toml) ?? "a number"
        case .bool: return value.bool.map(String.init) ?? "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        case .date: return "a date"
        case .time: return "a time"
        case .dateTime: return "a date and time"
        }
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped, so the
    /// message stays on one line whatever the value holds.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

enum NumberText {
    /// A limit as people write it: `0`, `10`, `0.1`.
    static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// A float as TOML spells it: `2.0`, `inf`, `-inf`, `nan`.
    static func toml(_ number: Double) -> String {
        number.isNaN ? "nan" : String(number)
    }
}
