import Foundation
import Testing

@testable import SMF

/// How a song's text is read when nothing says its encoding.
struct TextDecodingTests {
    /// Detection decodes a text as Shift-JIS only when it holds a byte that can lead a pair
    /// Foundation reads as a Japanese marker: that list must be exactly Foundation's.
    @Test func markerLeadBytesAreThoseFoundationDecodesMarkersFrom() {
        func hasMarker(_ bytes: [UInt8]) -> Bool {
            String(data: Data(bytes), encoding: .shiftJIS)?.unicodeScalars.contains(where: TextDecoding.isJapaneseMarker) ?? false
        }
        #expect((0...255).filter { hasMarker([UInt8($0)]) }.isEmpty, "a single byte read as a marker")
        let leads = (0...255).filter { lead in (0...255).contains { hasMarker([UInt8(lead), UInt8($0)]) } }.map(UInt8.init)
        #expect(Set(leads) == TextDecoding.markerLeadBytes)
    }

    @Test func readsJapaneseAsShiftJISAndLatinTextAsWindows1252() {
        let japanese: [UInt8] = [0x82, 0xA0, 0x83, 0x41] // "あア" in Shift-JIS
        #expect(TextDecoding(detectingIn: [japanese]).encoding == .shiftJIS)
        #expect(TextDecoding(detectingIn: [[0xA9, 0x20, 0x31, 0x39, 0x39, 0x35]]).encoding == .cp1252) // "© 1995"
        // A Latin text whose bytes include a lead byte is decoded to find out, and stays Latin.
        #expect(TextDecoding(detectingIn: [Array("Caf\u{E9} \u{81}".unicodeScalars.map { UInt8($0.value) })]).encoding == .cp1252)
        #expect(TextDecoding(detectingIn: [Array("plain".utf8)]).encoding == .utf8)
    }

    /// PC-98 era files wrote their names in half-width katakana alone (single bytes A1–DF): read as
    /// Shift-JIS, while Western text, whose capitals with accents and signs are the same bytes in
    /// Windows-1252, stays Windows-1252.
    @Test func readsHalfWidthKatakanaAsShiftJIS() {
        let piano: [UInt8] = [0xCB, 0xDF, 0xB1, 0xC9, 0x20, 0xBF, 0xC5, 0xC0] // "ﾋﾟｱﾉ ｿﾅﾀ"
        let sakura: [UInt8] = [0xBB, 0xB8, 0xD7] // "ｻｸﾗ"
        let decoding = TextDecoding(detectingIn: [piano, sakura])
        #expect(decoding.encoding == .shiftJIS)
        #expect(decoding.string(from: piano) == "ﾋﾟｱﾉ ｿﾅﾀ")
        let western: [[UInt8]] = [
            [0x47, 0x52, 0xDC, 0xDF, 0x45], // "GRÜßE"
            [0xA9, 0x20, 0x31, 0x39, 0x39, 0x35], // "© 1995"
            [0xC9, 0x54, 0xC9, 0x20, 0xC0, 0x20, 0x50, 0x41, 0x52, 0x49, 0x53], // "ÉTÉ À PARIS"
        ]
        for text in western { #expect(TextDecoding(detectingIn: [text]).encoding == .cp1252, "\(text)") }
        // A byte beyond half-width katakana's anywhere is not this: "ｻｸﾗ" beside "Café".
        #expect(TextDecoding(detectingIn: [sakura, [0x43, 0x61, 0x66, 0xE9]]).encoding == .cp1252)
    }
}
