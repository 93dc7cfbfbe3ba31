import Files
import SystemPackage

/// The user's freedesktop thumbnail cache (the Thumbnail Managing Standard), where file managers
/// look for a file's thumbnail before they make one: `$XDG_CACHE_HOME/thumbnails/normal/`, one
/// 128-pixel PNG per file, named by the MD5 of the file's URI and holding that URI and the file's
/// modification time (`Thumb::URI`, `Thumb::MTime`). Folders and files are the user's alone, as
/// the standard asks.
public struct ThumbnailCache: Sendable {
    /// The folder of the "normal" size.
    public let folder: FilePath
    /// The longer side of a "normal" thumbnail.
    public static let normalSize = 128
    /// RMID files' own covers, shown in place of a piano roll (beside, not in, this cache).
    public let covers: CoverCache

    /// - Parameter cacheHome: `$XDG_CACHE_HOME`, or `~/.cache`.
    public init(cacheHome: FilePath) {
        folder = cacheHome.appending("thumbnails").appending("normal")
        covers = CoverCache(cacheHome: cacheHome)
    }

    /// Where the thumbnail of the file at the absolute path `file` goes.
    public func path(for file: FilePath) -> FilePath {
        folder.appending(MD5.hexDigest(of: file.fileURI.utf8) + ".png")
    }

    /// The thumbnail of the MIDI file at the absolute path `file`: the one in the cache when it is
    /// at least as new as the file, otherwise one made now (which takes up to a fifth of a second
    /// for a large file: call it off any thread that must answer quickly).
    public func thumbnail(of file: FilePath) throws(ThumbnailError) -> FilePath {
        let thumbnail = path(for: file)
        guard let song = FileStamp(ofFileAt: file) else {
            throw .unreadableSong(.unreadable(path: file, reason: SystemError.current))
        }
        if let made = FileStamp(ofFileAt: thumbnail), made.modifiedSeconds >= song.modifiedSeconds { return thumbnail }
        try Thumbnailer(size: Self.normalSize).write(
            midiFile: file, to: thumbnail,
            text: [("Thumb::URI", file.fileURI), ("Thumb::MTime", String(song.modifiedSeconds))],
            access: .personal)
        return thumbnail
    }
}
