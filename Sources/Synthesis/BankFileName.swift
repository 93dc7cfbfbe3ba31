import Files
import SystemPackage

/// A name in a song's folder read as a sound bank's: a base name, then `.sf2`, `.sf3` or `.dls` in
/// any case. Names are bytes, whatever their encoding (Shift-JIS names unpacked from Japanese
/// archives among them), and are compared as ``comparable(_:)`` says.
struct BankFileName: Hashable, Sendable {
    /// A bank's extension, in the order banks of one base name are preferred (the issue's
    /// `SONG.sf2|.sf3|.dls`).
    enum Extension: Int, Comparable, Sendable {
        case sf2, sf3, dls

        static func < (lhs: Extension, rhs: Extension) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The extension of a name's bytes after its last dot, ASCII letters in any case. Asked of
        /// every name in a folder: no allocation.
        init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count == 3 else { return nil }
            let lowered = bytes.lazy.map(BankFileName.asciiLowercased)
            switch (lowered[bytes.startIndex], lowered[bytes.startIndex + 1], lowered[bytes.startIndex + 2]) {
            case (UInt8(ascii: "s"), UInt8(ascii: "f"), UInt8(ascii: "2")): self = .sf2
            case (UInt8(ascii: "s"), UInt8(ascii: "f"), UInt8(ascii: "3")): self = .sf3
            case (UInt8(ascii: "d"), UInt8(ascii: "l"), UInt8(ascii: "s")): self = .dls
            default: return nil
            }
        }
    }

    /// The whole name, as the folder holds it.
    let bytes: [UInt8]
    let fileExtension: Extension
    /// The name before the extension's dot, as bytes and as compared.
    let baseBytes: ArraySlice<UInt8>
    let comparableBase: String

    /// Nil for a name that is no bank's, and for a hidden one: a dot file is nobody's bank to
    /// hear (and a bank being copied in is a hidden temporary sibling until it is whole).
    init?(_ bytes: [UInt8]) {
        guard bytes.first != UInt8(ascii: "."), let dot = bytes.lastIndex(of: UInt8(ascii: ".")),
            let fileExtension = Extension(bytes[(dot + 1)...])
        else { return nil }
        self.bytes = bytes
        self.fileExtension = fileExtension
        baseBytes = bytes[..<dot]
        comparableBase = Self.comparable(baseBytes)
    }

    /// A song's name without its extension (`Chopin.mid`: `Chopin`; a name without a dot whole).
    static func baseName(ofSong bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex else { return bytes }
        return bytes[..<dot]
    }

    /// A base name in the form names are compared in: read as a person reads it (UTF-8 as it is,
    /// else Shift-JIS, else each stray byte as `\xNN`: ``FilePath/text``), then lowercased. So
    /// case is ignored in ASCII and beyond it (`É` and `é`, full-width `Ａ` and `ａ`), and Swift's
    /// string equality takes a name composed (NFC, as Linux tools write it) and one decomposed
    /// (NFD, as macOS writes it) as the same; a Shift-JIS name is compared by its characters, so
    /// the second byte of a double-byte character (0x40–0x7E overlaps ASCII letters) is never
    /// folded as if it were a letter: `ア` (83 41) and `チ` (83 61) stay apart.
    static func comparable(_ base: ArraySlice<UInt8>) -> String {
        FilePath(bytes: base).text.lowercased()
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
