import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// How much room a file system has left, to tell a full disk from other failures when a library
/// (SQLite) says only that it could not write.
public enum DiskSpace {
    /// Less than this left for the user is full: SQLite grows its files by pages and its
    /// shared-memory file by 32 KB.
    public static let fullBelowBytes = 64 * 1024

    /// Whether the file system holding `folder` has (nearly) no room left for the user, or no
    /// file entries (inodes) left; false when it cannot be asked.
    public static func isFull(at folder: FilePath) -> Bool {
        var info = statvfs()
        guard folder.withPlatformString({ statvfs($0, &info) }) == 0 else { return false }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        return free < UInt64(fullBelowBytes) || (info.f_files > 0 && info.f_favail == 0)
    }
}
