/// An RMID file's INFO list as `smfplay info` shows it: its texts read (see
/// ``RMIDInfo/textDecoding(songDecoding:)``), and what its picture is.
///
/// The title is not repeated here: it is the summary's own ``SongSummary/title``, which it wins.
public struct RMIDInfoSummary: Codable, Hashable, Sendable {
    public struct PictureSummary: Codable, Hashable, Sendable {
        /// `png` or `jpeg`; nil for a picture of another kind.
        public var format: RMIDInfo.Picture.Format?
        public var byteCount: Int
    }

    public var artist: String?
    public var album: String?
    public var genre: String?
    public var date: String?
    public var comment: String?
    public var copyright: String?
    /// Who made the sound bank, in the specification's words.
    public var engineer: String?
    public var software: String?
    /// The encoding the INFO names for its texts, when smfplay can read it (e.g. `shift-jis`).
    public var textEncoding: String?
    /// The encoding the INFO names for the song's texts.
    public var midiTextEncoding: String?
    public var picture: PictureSummary?

    /// `info`'s texts, read with `decoding` (the INFO's own).
    public init(_ info: RMIDInfo, decoding: TextDecoding) {
        let text = { (field: RMIDInfo.Field) in info.text(field, decoding: decoding) }
        artist = text(.artist)
        album = text(.album)
        genre = text(.genre)
        date = text(.date)
        comment = text(.comment)
        copyright = text(.copyright)
        engineer = text(.engineer)
        software = text(.software)
        textEncoding = info.textEncoding?.rawValue
        midiTextEncoding = info.midiTextEncoding?.rawValue
        picture = info.picture.map { PictureSummary(format: $0.format, byteCount: $0.bytes.count) }
    }
}
