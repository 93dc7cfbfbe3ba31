import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file's size and modification time: when either differs from a stamp taken earlier, the file
/// has changed since (edited, replaced, or another file put in its place), and what was learned
/// from it no longer holds.
public struct FileStamp: Codable, Hashable, Sendable {
    public var size: Int64
    /// The modification time: seconds since 1970, and the nanoseconds past them.
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64

    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The stamp of the file at `path` now (links followed); nil when there is none.
    /// A member of an archive has its archive's stamp (it changes only with it); nil when the
    /// archive has no such member.
    public init?(ofFileAt path: FilePath) {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else {
            guard errno == ENOTDIR, let archived = ArchivedPath(path), (try? archived.read(memberLimit: Archive.memberSizeCeiling)) != nil else {
                return nil
            }
            self.init(ofFileAt: archived.archive)
            return
        }
        self.init(size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// Whether the file at `path` is gone or differs in size or modification time.
    public func hasChanged(fileAt path: FilePath) -> Bool {
        FileStamp(ofFileAt: path) != self
    }
}
