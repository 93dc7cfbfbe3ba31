import Files
import Playback
import SMF
import SystemPackage

/// The song playing, as MPRIS metadata describes it (xesam and mpris keys).
public struct MediaPlayerTrack: Equatable, Sendable {
    /// A new number whenever a song starts (the same file again included): the track id
    /// `/org/smfplay/track/<number>`, so that a SetPosition meant for an earlier song is ignored.
    public var number: Int
    /// nil for a song read from standard input: it has no URL.
    public var file: FilePath?
    /// The song's title, or its file's name.
    public var title: String
    public var lengthMicroseconds: Int64
    /// An RMID file's INFO album, else the folder the file is in (a category, in
    /// `<Composer>/<Category>/<piece>.mid`).
    public var album: String?
    /// An RMID file's INFO artist, else the folder above that one (the composer).
    public var artist: String?
    /// An RMID file's INFO genre.
    public var genre: String?
    /// An RMID file's INFO date, as written (`xesam:contentCreated`; "1987" is an ISO 8601 date too).
    public var contentCreated: String?
    /// An RMID file's cover, else the piano-roll thumbnail, once one is made.
    public var art: FilePath?

    public init(
        number: Int, file: FilePath?, title: String, lengthMicroseconds: Int64, album: String? = nil, artist: String? = nil,
        genre: String? = nil, contentCreated: String? = nil, art: FilePath? = nil
    ) {
        self.number = number
        self.file = file
        self.title = title
        self.lengthMicroseconds = lengthMicroseconds
        self.album = album
        self.artist = artist
        self.genre = genre
        self.contentCreated = contentCreated
        self.art = art
    }

    /// The song of a queue item, as it starts: its file absolute and normalized (its URL), its
    /// title else the file's name, and its folders, laid out as the library is
    /// (`<Composer>/<Category>/<piece>.mid`), its artist and album. A song read from standard input
    /// has no file and no folders. An RMID file's INFO (`songInfo`) says the artist and album
    /// instead of the folders, and the genre and date.
    init(number: Int, item: QueueItem, songTitle: String?, songInfo: RMIDInfoSummary? = nil, durationSeconds: Double) {
        let lengthMicroseconds = Int64((durationSeconds * 1e6).rounded())
        guard case .file(let file) = item else {
            self.init(
                number: number, file: nil, title: songTitle ?? item.displayName, lengthMicroseconds: lengthMicroseconds, album: songInfo?.album,
                artist: songInfo?.artist, genre: songInfo?.genre, contentCreated: songInfo?.date)
            return
        }
        var path = file.absolute()
        path.lexicallyNormalize()
        let folders = path.removingLastComponent()
        self.init(
            number: number, file: path, title: songTitle ?? path.stem ?? path.text, lengthMicroseconds: lengthMicroseconds,
            album: songInfo?.album ?? folders.lastComponent?.text, artist: songInfo?.artist ?? folders.removingLastComponent().lastComponent?.text,
            genre: songInfo?.genre, contentCreated: songInfo?.date)
    }

    /// The D-Bus object path that names this track.
    public var objectPath: String { Self.objectPathPrefix + String(number) }

    static let objectPathPrefix = "/org/smfplay/track/"

    /// The number in a track's object path, or nil for a path that names no track of smfplay's.
    static func number(inObjectPath path: String) -> Int? {
        guard path.hasPrefix(objectPathPrefix) else { return nil }
        return Int(path.dropFirst(objectPathPrefix.count))
    }
}
