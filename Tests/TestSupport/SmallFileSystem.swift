import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file system of its own, a few hundred kilobytes of memory (tmpfs), mounted on a temporary
/// folder and unmounted when dropped: a disk that fills up for real (`ENOSPC` from the kernel,
/// SQLite's `SQLITE_FULL`), for what smfplay does when the disk is full. Mounting takes root
/// (`canMount`); CI runs as root.
public final class SmallFileSystem {
    public let path: String
    private let folder: TemporaryFolder

    /// Whether this process may mount a file system.
    public static var canMount: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }

    public init(kilobytes: Int) throws {
        folder = try TemporaryFolder()
        path = folder.path
        let mounted = try Command(
            URL(fileURLWithPath: "/bin/mount"), arguments: ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path], timeLimit: 10
        ).run()
        guard mounted.succeeded else { throw TestFailure("cannot mount a tmpfs on \(path): \(mounted)") }
    }

    deinit {
        _ = try? Command(URL(fileURLWithPath: "/bin/umount"), arguments: ["-l", path], timeLimit: 10).run()
    }

    /// Fills what is left with a file (`filler`), to the last block, then gives back `bytes` of it
    /// (a page at a time: tmpfs counts pages); `empty()` frees it all again.
    public func fill(leaving bytes: Int = 0) {
        defer { if bytes > 0 { truncate(path + "/filler", off_t(max(0, fillerSize - bytes))) } }
        let file = open(path + "/filler", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard file >= 0 else { return }
        defer { close(file) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(file, $0.baseAddress, $0.count) }) > 0 {}
        // The last few hundred bytes, which a whole block no longer fits.
        while block.withUnsafeBytes({ write(file, $0.baseAddress, 1) }) > 0 {}
    }

    private var fillerSize: Int {
        var status = stat()
        return stat(path + "/filler", &status) == 0 ? Int(status.st_size) : 0
    }

    /// Frees what `fill()` took.
    public func empty() {
        unlink(path + "/filler")
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Every name under the folder, hidden ones included, as paths relative to it, sorted.
    public func everything() -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { $0 != "filler" }.sorted()
    }
}
