import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file's device and inode: the same folder reached by two paths has one identity.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identity of what `path` leads to, links followed; nil when nothing is there.
    public init?(path: FilePath) {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else { return nil }
        self.init(info)
    }
}
