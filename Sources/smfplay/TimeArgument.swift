import ArgumentParser

/// A time on the command line, as clocks write it: plain seconds (`75`, `75.5`), `m:ss` or
/// `h:mm:ss`, the seconds and minutes after a colon under 60 (the last field may have a
/// fraction). `9:99` is refused: it was read as 10:39, a place the user did not mean.
/// Options take it with `transform: TimeArgument.init(parsing:)`, so that a time they refuse is
/// reported with the forms it may take.
struct TimeArgument: Hashable {
    let seconds: Double
    /// As it was given.
    let text: String

    init(parsing argument: String) throws {
        guard let time = Self(argument) else { throw ValidationError("give \(Self.forms)") }
        self = time
    }

    private init?(_ argument: String) {
        let fields = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            // Digits, and a fraction in the last field only: no signs, exponents or "inf".
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || isLast && $0 == ".") }),
                let value = Double(field), value.isFinite
            else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        seconds = total
        text = argument
    }

    static let forms = "seconds, m:ss or h:mm:ss (minutes and seconds under 60)"
}
