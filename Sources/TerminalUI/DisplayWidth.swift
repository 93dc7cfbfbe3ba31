/// How many terminal columns text takes: East Asian wide characters and emoji
/// take two, combining marks none.
enum DisplayWidth {
    static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .enclosingMark }) {
            return 0
        }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The text as it can be shown: control characters (C0, DEL, C1), which a terminal would
    /// obey rather than show (a file name can hold ESC [ 2 J, or a line break), as `�`.
    static func printable(_ text: String) -> String {
        // General category Cc is exactly C0, DEL and C1.
        let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "\u{FFFD}" : $0 }))
    }

    /// The text made printable, then cut to fit `width` columns, never inside a character, with `…` when cut.
    static func fitting(_ text: String, width: Int) -> String {
        let text = printable(text)
        guard columns(of: text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let wide = columns(of: character)
            if used + wide > width - 1 { break }
            result.append(character)
            used += wide
        }
        return result + "…"
    }
}
