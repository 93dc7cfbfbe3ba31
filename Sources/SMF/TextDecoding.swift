import Foundation

/// Turns the bytes of a file's text meta events (titles, lyrics, markers) into strings, with one
/// encoding decided for the whole file.
///
/// The SMF standard names no encoding. Files from the last twenty years are mostly UTF-8; Japanese
/// files are usually Shift-JIS; older European ones are Windows-1252. Many Windows-1252 strings
/// are also valid Shift-JIS (`é` followed by a letter reads as a kanji), so a string alone cannot
/// tell: a title written only in kanji looks like mojibake of Windows-1252. The whole file can: one
/// whose text has kana or Japanese punctuation anywhere (its lyrics, say) is Shift-JIS throughout.
///
/// A string that is valid UTF-8 is read as UTF-8 whatever the file's encoding (mixed files exist,
/// and bytes of the other encodings are almost never valid UTF-8 by chance), unless the encoding
/// is forced. A byte the encoding cannot read is read as Latin-1, so that nothing is dropped.
public struct TextDecoding: Codable, Hashable, Sendable {
    public enum Encoding: String, CaseIterable, Codable, Hashable, Sendable {
        case utf8 = "utf-8"
        case shiftJIS = "shift-jis"
        case cp1252
    }

    /// The encoding of the file's strings that are not UTF-8 (or of all of them when forced).
    public let encoding: Encoding
    /// Set by the user (`--text-encoding`): every string is read in `encoding`.
    public let isForced: Bool

    public init(forcing encoding: Encoding) {
        self.encoding = encoding
        isForced = true
    }

    /// The encoding the text of `file` is in, from all of it.
    public init(detectingIn file: MIDIFile) {
        var texts: [[UInt8]] = []
        for track in file.tracks {
            for event in track.events where event.status == 0xFF {
                if let type = track.metaType(of: event), (0x01...0x09).contains(type) { texts.append(Array(track.payload(of: event))) }
            }
        }
        self.init(detectingIn: texts)
    }

    /// The encoding of these strings, taken together.
    public init(detectingIn texts: [[UInt8]]) {
        isForced = false
        let foreign = texts.map(Self.trimmed).filter { String(validating: $0, as: UTF8.self) == nil }
        guard !foreign.isEmpty else {
            encoding = .utf8
            return
        }
        let asShiftJIS = foreign.map { String(data: Data($0), encoding: .shiftJIS) }
        let readable = asShiftJIS.compactMap { $0 }
        let hasJapanese = readable.contains { $0.unicodeScalars.contains(where: Self.isJapaneseMarker) }
        encoding = hasJapanese && readable.count * 2 >= foreign.count ? .shiftJIS : .cp1252
    }

    public func string(from bytes: some Collection<UInt8>) -> String {
        let bytes = Self.trimmed(Array(bytes))
        if !isForced || encoding == .utf8, let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        let data = Data(bytes)
        let decoded: String? =
            switch encoding {
            case .utf8: nil
            case .shiftJIS: String(data: data, encoding: .shiftJIS)
            case .cp1252: String(data: data, encoding: .windowsCP1252)
            }
        return decoded ?? String(data: data, encoding: .isoLatin1) ?? String(decoding: bytes, as: Unicode.ASCII.self)
    }

    /// Without the NULs some programs end their strings with.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        while bytes.last == 0 { bytes.removeLast() }
        return bytes
    }

    /// Kana, Japanese punctuation and the full-width forms: what real Japanese text nearly always
    /// has, and what Windows-1252 read as Shift-JIS almost never makes (it makes kanji and
    /// half-width katakana, which are left out for that reason).
    private static func isJapaneseMarker(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x30FF).contains(scalar.value) || (0xFF01...0xFF5E).contains(scalar.value)
    }
}
