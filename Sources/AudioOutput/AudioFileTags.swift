/// What an audio file says about its song: the texts players show (title, artist, album…), as
/// libsndfile stores them in each format's own place, and TagLib where libsndfile falls short
/// (see ``TagLibTags``).
///
/// What libsndfile keeps of them in each format (libsndfile 1.2, read back by it and by exiftool):
/// - FLAC, Ogg Vorbis and Opus: all of them, as Vorbis comments in UTF-8.
/// - WAV: all of them, in a `LIST INFO` chunk (the album as `IPRD`). RIFF names no encoding: the
///   UTF-8 bytes are stored as they are; readers that take INFO texts for Latin-1 garble
///   anything beyond ASCII.
/// - AIFF: the title (`NAME`), artist (`AUTH`), comment (`ANNO`), copyright (`(c) `) and software
///   (an `APPL` chunk); no album, genre or date. The same bytes as WAV, for readers that expect
///   ASCII. TagLib adds all of them, in an `ID3 ` chunk.
/// - MP3: LAME's ID3v1 tag (30 bytes a text), and an ID3v2 tag when a text is longer, both with
///   the UTF-8 bytes taken for Latin-1; no copyright or software. TagLib writes all of them in
///   UTF-8 into an ID3v2.4 tag in their place, and the ID3v1 tag again in Latin-1.
///
/// libsndfile adds its own name to the software: `smfplay 0.1.0 (libsndfile-1.2.0)`.
public struct AudioFileTags: Hashable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var genre: String?
    /// As the song has it: a year, or a date in any form.
    public var date: String?
    public var comment: String?
    public var copyright: String?
    /// The program that made the file.
    public var software: String?

    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, genre: String? = nil, date: String? = nil, comment: String? = nil,
        copyright: String? = nil, software: String? = nil
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.date = date
        self.comment = comment
        self.copyright = copyright
        self.software = software
    }

    /// No text at all: nothing is written.
    public var isEmpty: Bool { self == AudioFileTags() }

    /// The longest text written, in bytes of UTF-8; a longer one is cut at a character before it.
    /// libsndfile reads no WAV INFO text over 2,045 bytes back (it then drops every one of them),
    /// and past about 50 KB it writes a WAV whose INFO chunk is broken and an AIFF that no reader
    /// opens, without a word: a title is never that long, but an RMID comment may be anything.
    public static let longestText = 2_000
}
