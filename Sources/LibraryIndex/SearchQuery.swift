import Files
import SystemPackage

/// What to look for in the index: words, and the filters people ask for.
public struct SearchQuery: Hashable, Sendable {
    /// Each must be found somewhere: in a folder name, the file name, the title, an RMID file's
    /// artist, album or genre, the copyright, or the words.
    public var words: [String]
    /// Only files under this folder (an absolute path).
    public var folder: FilePath
    public var minimumSeconds: Double?
    public var maximumSeconds: Double?
    /// gm, gs, xg or gm2.
    public var mode: String?
    public var mustHaveLyrics: Bool
    /// The most results wanted (the best of them); nil for all.
    public var limit: Int?

    public init(
        words: [String], folder: FilePath, minimumSeconds: Double? = nil, maximumSeconds: Double? = nil,
        mode: String? = nil, mustHaveLyrics: Bool = false, limit: Int? = nil
    ) {
        self.words = words
        self.folder = folder
        self.minimumSeconds = minimumSeconds
        self.maximumSeconds = maximumSeconds
        self.mode = mode
        self.mustHaveLyrics = mustHaveLyrics
        self.limit = limit
    }
}

/// A file the search found.
public struct SearchResult: Hashable, Sendable, Encodable {
    public var path: FilePath
    public var durationSeconds: Double?
    public var mode: String?
    public var title: String?
    /// An RMID file's INFO artist, album and genre.
    public var artist: String?
    public var album: String?
    public var genre: String?
    public var hasLyrics: Bool
    /// How many of the query's words are in the file's own name: such files come first.
    public var wordsInName: Int

    enum CodingKeys: String, CodingKey {
        case path, pathBytes, durationSeconds, mode, title, artist, album, genre, hasLyrics, wordsInName
    }

    /// The path as text (see `FilePath.text`), and its bytes in base64 when they are not UTF-8:
    /// JSON has no bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path.text, forKey: .path)
        try container.encodeIfPresent(path.base64BytesUnlessUTF8, forKey: .pathBytes)
        try container.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(artist, forKey: .artist)
        try container.encodeIfPresent(album, forKey: .album)
        try container.encodeIfPresent(genre, forKey: .genre)
        try container.encode(hasLyrics, forKey: .hasLyrics)
        try container.encode(wordsInName, forKey: .wordsInName)
    }
}
