import Files
import SMF
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The covers RMID files carry (`IPIC`), copied out of them for the media keys' `mpris:artUrl`,
/// which must name a file: `$XDG_CACHE_HOME/smfplay/covers/`, one file per song, named by the MD5
/// of the song's URI, with the picture's own extension. Not the freedesktop thumbnail cache: what
/// goes there is a 128-pixel PNG with the song's URI in it, and a cover is neither.
public struct CoverCache: Sendable {
    public let folder: FilePath

    /// - Parameter cacheHome: `$XDG_CACHE_HOME`, or `~/.cache`.
    public init(cacheHome: FilePath) {
        folder = cacheHome.appending("smfplay").appending("covers")
    }

    /// Where the cover of the song at the absolute path `file` goes.
    public func path(for file: FilePath, format: RMIDInfo.Picture.Format) -> FilePath {
        folder.appending(MD5.hexDigest(of: file.fileURI.utf8) + (format == .png ? ".png" : ".jpg"))
    }

    /// The cover of the song at the absolute path `file`, whose INFO holds `picture`: the copy in
    /// the cache when it is at least as new as the song, otherwise one copied now, for the user
    /// only (what someone listens to is nobody else's business). nil for a picture smfplay cannot
    /// name the kind of.
    public func cover(of file: FilePath, picture: RMIDInfo.Picture) throws(ThumbnailError) -> FilePath? {
        guard let format = picture.format else { return nil }
        let cover = path(for: file, format: format)
        guard let song = FileStamp(ofFileAt: file) else {
            throw .unreadableSong(.unreadable(path: file, reason: SystemError.current))
        }
        if let made = FileStamp(ofFileAt: cover), made.modifiedSeconds >= song.modifiedSeconds { return cover }
        let bytes: [UInt8]
        do {
            bytes = try ReadableFile(file).read(upTo: picture.bytes.count, at: Int64(picture.bytes.lowerBound))
        } catch let error as FileReadError {
            throw .unreadableSong(.unreadable(path: file, reason: error.description))
        } catch {
            throw .unreadableSong(.unreadable(path: file, reason: "\(error)"))
        }
        // The file changed since it was read: its picture is no longer where it was.
        guard bytes.count == picture.bytes.count, RMIDInfo.Picture.format(of: bytes) == format else { return nil }
        do {
            try AtomicWrite.write(bytes, to: cover, access: .personal)
        } catch {
            throw .cannotWrite(error)
        }
        return cover
    }
}
