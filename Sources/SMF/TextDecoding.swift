import Foundation

/// Turns the bytes of a text meta event into a string.
///
/// The SMF standard names no encoding. Files from the last twenty years are
/// mostly UTF-8; Japanese files are usually Shift-JIS; older European ones
/// are Windows-1252. Each is tried in that order, and the last accepts any bytes.
/// Many Windows-1252 strings are also valid Shift-JIS (`é` followed by a letter
/// reads as a kanji), so Shift-JIS is taken only when the result has kana or
/// Japanese punctuation, which real Japanese names nearly always have.
public enum TextDecoding {
    public static func string(from bytes: some Collection<UInt8>) -> String {
        var bytes = Array(bytes)
        while bytes.last == 0 { bytes.removeLast() }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        let data = Data(bytes)
        if let shiftJIS = String(data: data, encoding: .shiftJIS), shiftJIS.unicodeScalars.contains(where: isJapaneseMarker) {
            return shiftJIS
        }
        return String(data: data, encoding: .windowsCP1252) ?? String(decoding: bytes, as: Unicode.ASCII.self)
    }

    /// Kana, Japanese punctuation, and the full-width and half-width forms.
    private static func isJapaneseMarker(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x30FF).contains(scalar.value) || (0xFF01...0xFF9F).contains(scalar.value)
    }
}
