import Foundation

/// What an RMID file's `LIST INFO` chunk says about its song (the SF2-RMIDI specification, rev.
/// 1.19): its texts as written, the encodings it names, its picture, its bank offset.
///
/// Texts are kept as bytes, as the song's own texts are, and read with ``textDecoding(songDecoding:)``:
/// the file names their encoding in `IENC`, and the user may force another.
public struct RMIDInfo: Hashable, Sendable {
    /// The INFO texts smfplay shows, by meaning.
    public enum Field: String, CaseIterable, Codable, Hashable, Sendable {
        case title, artist, album, genre, date, comment, copyright, engineer, software

        /// The chunks that hold it, the preferred first: an album is `IALB` or, in older
        /// files, `IPRD` (the product); the specification says `IALB` wins when both are there.
        public var chunkIDs: [String] {
            switch self {
            case .title: ["INAM"]
            case .artist: ["IART"]
            case .album: ["IALB", "IPRD"]
            case .genre: ["IGNR"]
            case .date: ["ICRD"]
            case .comment: ["ICMT"]
            case .copyright: ["ICOP"]
            case .engineer: ["IENG"]
            case .software: ["ISFT"]
            }
        }
    }

    /// An `IPIC` chunk: where its bytes lie in the file (not copied: a cover can be large, and
    /// only the media keys want it), and what they are.
    public struct Picture: Hashable, Sendable {
        public enum Format: String, Codable, Hashable, Sendable {
            case png, jpeg
        }

        public var bytes: Range<Int>
        /// Found by its signature; nil for anything else (GIF, WebP…), which is not shown.
        public var format: Format?

        public init(bytes: Range<Int>, format: Format?) {
            self.bytes = bytes
            self.format = format
        }

        /// The format the first bytes of a picture show.
        public static func format(of prefix: some Collection<UInt8>) -> Format? {
            let prefix = Array(prefix.prefix(8))
            if prefix == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
            if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
            return nil
        }
    }

    /// Each text present, as written up to its first NUL (INFO texts are C strings); empty ones
    /// are dropped, as the specification says.
    public var texts: [Field: [UInt8]]
    /// The encoding `IENC` names for the texts; nil when it names none, or one smfplay cannot read.
    public var textEncoding: TextDecoding.Encoding?
    /// The encoding `MENC` names for the song's own text events (see ``TextDecoding/init(detectingIn:)``).
    public var midiTextEncoding: TextDecoding.Encoding?
    /// The `DBNK` bank offset, 0–127; nil when the file has none (see ``EmbeddedSoundBank``).
    public var bankOffset: Int?
    public var picture: Picture?

    public init(
        texts: [Field: [UInt8]] = [:], textEncoding: TextDecoding.Encoding? = nil, midiTextEncoding: TextDecoding.Encoding? = nil,
        bankOffset: Int? = nil, picture: Picture? = nil
    ) {
        self.texts = texts
        self.textEncoding = textEncoding
        self.midiTextEncoding = midiTextEncoding
        self.bankOffset = bankOffset
        self.picture = picture
    }

    public subscript(field: Field) -> [UInt8]? { texts[field] }

    /// Nothing said at all: read as no INFO list.
    var isEmpty: Bool { self == RMIDInfo() }

    /// How the texts are read: as the user forces the song's (`--text-encoding`, the
    /// configuration's `text_encoding`), else in the encoding `IENC` names, else as the song's.
    public func textDecoding(songDecoding: TextDecoding) -> TextDecoding {
        if songDecoding.isForced { return songDecoding }
        return textEncoding.map(TextDecoding.init(declared:)) ?? songDecoding
    }

    /// The text of `field`, read with `decoding` (the INFO's, from ``textDecoding(songDecoding:)``),
    /// without the blanks around it; nil when absent or blank.
    public func text(_ field: Field, decoding: TextDecoding) -> String? {
        guard let bytes = texts[field] else { return nil }
        let text = decoding.string(from: bytes).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
