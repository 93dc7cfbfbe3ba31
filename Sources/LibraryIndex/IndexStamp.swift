#if canImport(Glibc)
    import Glibc
    import Files
    import SystemPackage
#endif

/// A file's size, modification time and inode: when any of them differs from the indexed one,
/// the file has changed (edited, replaced, or another file moved into its place) and is read again.
struct IndexStamp: Hashable, Sendable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var inode: Int64

    init(size: Int64, modifiedNanoseconds: Int64, inode: Int64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    /// The file's stamp now (links followed); nil when it is gone. A member of an archive has its
    /// archive's, and a song of an XMI file of several (`music.xmi/2`) its file's: each changes only
    /// with it.
    init?(path: FilePath) {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else {
            guard errno == ENOTDIR else { return nil }
            if let archived = ArchivedPath(path) {
                self.init(path: archived.archive)
            } else if let song = path.numberedSong {
                self.init(path: song.file)
            } else {
                return nil
            }
            return
        }
        self.init(
            size: Int64(info.st_size), modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            inode: Int64(bitPattern: UInt64(info.st_ino)))
    }
}
