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
        // The other Windows code pages are read only where a file names them (an RMID file's
        // `IENC` and `MENC`, which the SF2-RMIDI specification lets name any of 1250–1258);
        // guessing never picks them, and the command line does not offer them.
        case cp1250, cp1251, cp1253, cp1254, cp1255, cp1256, cp1257, cp1258
    }

    /// The encoding of the file's strings that are not UTF-8 (or of all of them when forced).
    public let encoding: Encoding
    /// Set by the user (`--text-encoding`): every string is read in `encoding`.
    public let isForced: Bool

    public init(forcing encoding: Encoding) {
        self.encoding = encoding
        isForced = true
    }

    /// The encoding a file names for its own text (an RMID file's `IENC` or `MENC`): strings
    /// that are valid UTF-8 are still read as UTF-8, as in a guess, since files mix them.
    public init(declared encoding: Encoding) {
        self.encoding = encoding
        isForced = false
    }

    /// The encoding the text of `file` is in: the one an RMID file names for its song (`MENC`),
    /// else the one all its text shows (its INFO texts with it when they name no encoding of
    /// their own: one program wrote both).
    public init(detectingIn file: MIDIFile) {
        if let declared = file.rmidInfo?.midiTextEncoding {
            self.init(declared: declared)
            return
        }
        // Only the texts that are neither ASCII nor UTF-8 decide, and only they are copied (a
        // karaoke file has hundreds of syllables; the index reads thousands of files a second).
        var foreign: [[UInt8]] = []
        if let info = file.rmidInfo, info.textEncoding == nil { foreign += info.texts.values.compactMap { Self.foreign($0) } }
        for track in file.tracks {
            for index in track.payloadEventIndices {
                let event = track.events[index]
                if let type = track.metaType(of: event), (0x01...0x09).contains(type), let text = Self.foreign(track.payload(of: event)) {
                    foreign.append(text)
                }
            }
        }
        self.init(detectingInForeign: foreign)
    }

    /// The encoding of these strings, taken together.
    public init(detectingIn texts: [[UInt8]]) {
        self.init(detectingInForeign: texts.compactMap { Self.foreign($0) })
    }

    /// The encoding of texts that are neither ASCII nor UTF-8 (none: UTF-8).
    private init(detectingInForeign foreign: [[UInt8]]) {
        isForced = false
        guard !foreign.isEmpty else {
            encoding = .utf8
            return
        }
        // Texts without a byte that could lead a marker's pair are not Japanese (most such files
        // are Latin texts: the index reads thousands), unless they are written in half-width
        // katakana alone, as many PC-98 era files are.
        guard foreign.contains(where: { $0.contains(where: Self.markerLeadBytes.contains) }) else {
            encoding = Self.isHalfWidthKatakana(foreign) ? .shiftJIS : .cp1252
            return
        }
        let asShiftJIS = foreign.map { String(data: Data($0), encoding: .shiftJIS) }
        let readable = asShiftJIS.compactMap { $0 }
        let hasJapanese = readable.contains { $0.unicodeScalars.contains(where: Self.isJapaneseMarker) }
        encoding = hasJapanese && readable.count * 2 >= foreign.count ? .shiftJIS : .cp1252
    }

    /// A text without its trailing NULs when it is neither ASCII nor UTF-8, which is what tells
    /// an encoding; nil otherwise (ASCII reads the same in every encoding smfplay knows).
    private static func foreign(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard !text.allSatisfy({ $0 < 0x80 }) else { return nil }
        let trimmed = Self.trimmed(Array(text))
        return String(validating: trimmed, as: UTF8.self) == nil ? trimmed : nil
    }

    public func string(from bytes: some Collection<UInt8>) -> String {
        let bytes = Self.trimmed(Array(bytes))
        if !isForced || encoding == .utf8, let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        let data = Data(bytes)
        let decoded = encoding.foundationEncoding.flatMap { String(data: data, encoding: $0) }
        return decoded ?? String(data: data, encoding: .isoLatin1) ?? String(decoding: bytes, as: Unicode.ASCII.self)
    }

    /// Without the NULs some programs end their strings with.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        while bytes.last == 0 { bytes.removeLast() }
        return bytes
    }

    /// Whether `foreign` is Japanese in half-width katakana (Shift-JIS's single bytes A1–DF): every
    /// byte beyond ASCII is one of those, and some text has three katakana (A6–DF) in a row. In
    /// Windows-1252 those bytes are capitals with accents and signs (`©`, `°`, `À`…), which real
    /// Western text does not put three in a row: `GRÜßE` and `© 1995` stay Windows-1252.
    static func isHalfWidthKatakana(_ foreign: [[UInt8]]) -> Bool {
        guard foreign.allSatisfy({ $0.allSatisfy { $0 < 0x80 || (0xA1...0xDF).contains($0) } }) else { return false }
        return foreign.contains { text in
            var run = 0
            for byte in text {
                run = (0xA6...0xDF).contains(byte) ? run + 1 : 0
                if run == 3 { return true }
            }
            return false
        }
    }

    /// Kana, Japanese punctuation and the full-width forms: what real Japanese text nearly always
    /// has, and what Windows-1252 read as Shift-JIS almost never makes (it makes kanji and
    /// half-width katakana, which are left out for that reason).
    static func isJapaneseMarker(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x30FF).contains(scalar.value) || (0xFF01...0xFF5E).contains(scalar.value)
    }

    /// The first bytes of the Shift-JIS pairs that Foundation reads as markers (rows 1–3: kana,
    /// punctuation, full-width letters; 0x87, 0xEE and 0xFA: Windows' extensions with a few); no
    /// single byte is one. TextDecodingTests checks this against Foundation, pair by pair.
    static let markerLeadBytes: Set<UInt8> = [0x81, 0x82, 0x83, 0x87, 0xEE, 0xFA]
}

extension TextDecoding.Encoding {
    /// Foundation's name for it; nil for UTF-8, which Swift reads itself.
    public var foundationEncoding: String.Encoding? {
        switch self {
        case .utf8: nil
        case .shiftJIS: .shiftJIS
        case .cp1250: .windowsCP1250
        case .cp1251: .windowsCP1251
        case .cp1252: .windowsCP1252
        case .cp1253: .windowsCP1253
        case .cp1254: .windowsCP1254
        // Foundation names no constant for these, but reads them by CoreFoundation's numbers
        // (kCFStringEncodingWindowsHebrew and on), marked as such by the high bit.
        case .cp1255: String.Encoding(rawValue: 0x8000_0505)
        case .cp1256: String.Encoding(rawValue: 0x8000_0506)
        case .cp1257: String.Encoding(rawValue: 0x8000_0507)
        case .cp1258: String.Encoding(rawValue: 0x8000_0508)
        }
    }

    /// The encoding an RMID file's `IENC` or `MENC` names, as the SF2-RMIDI specification spells
    /// them (`utf-8`, `shift-jis` or `Shift_JIS`, `windows-1250`…`windows-1258`, in any case) or
    /// as programs also write them (`utf8`, `sjis`, `cp1252`, `ascii`); nil for any other.
    public init?(declaredName name: String) {
        let name = name.lowercased().replacingOccurrences(of: "_", with: "-")
        switch name {
        case "utf-8", "utf8", "ascii", "us-ascii": self = .utf8
        case "shift-jis", "shiftjis", "sjis", "ms932", "cp932", "windows-31j": self = .shiftJIS
        default:
            for prefix in ["windows-", "cp"] where name.hasPrefix(prefix) {
                if let page = Self(rawValue: "cp" + name.dropFirst(prefix.count)) {
                    self = page
                    return
                }
            }
            return nil
        }
    }
}
