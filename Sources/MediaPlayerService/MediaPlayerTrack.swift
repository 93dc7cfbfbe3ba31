import Files
import Playback
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
    /// The folder the file is in (a category, in `<Composer>/<Category>/<piece>.mid`).
    public var album: String?
    /// The folder above that one (the composer).
    public var artist: String?
    /// The piano-roll thumbnail, once one is made.
    public var art: FilePath?

    public init(
        number: Int, file: FilePath?, title: String, lengthMicroseconds: Int64, album: String? = nil, artist: String? = nil,
        art: FilePath? = nil
    ) {
        self.number = number
        self.file = file
        self.title = title
        self.lengthMicroseconds = lengthMicroseconds
        self.album = album
        self.artist = artist
        self.art = art
    }

    /// The song of a queue item, as it starts: its file absolute and normalized (its URL), its
    /// title else the file's name, and its folders, laid out as the library is
    /// (`<Composer>/<Category>/<piece>.mid`), its artist and album. A song read from standard input
    /// has no file and no folders.
    init(number: Int, item: QueueItem, songTitle: String?, durationSeconds: Double) {
        let lengthMicroseconds = Int64((durationSeconds * 1e6).rounded())
        guard case .file(let file) = item else {
            self.init(number: number, file: nil, title: songTitle ?? item.displayName, lengthMicroseconds: lengthMicroseconds)
            return
        }
        var path = file.absolute()
        path.lexicallyNormalize()
        let folders = path.removingLastComponent()
        self.init(
            number: number, file: path, title: songTitle ?? path.stem ?? path.text, lengthMicroseconds: lengthMicroseconds,
            album: folders.lastComponent?.text, artist: folders.removingLastComponent().lastComponent?.text)
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
