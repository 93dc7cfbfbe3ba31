import Files
import Synchronization
import SystemPackage

/// `render --report FILE.jsonl`: a JSON line per input, appended to a file that many tasks of a
/// cluster job name alike on a shared (NFS-like) file system.
///
/// Each shard appends to a file of its own, `FILE.shard-I-of-N.jsonl`: `O_APPEND` is atomic
/// between processes of one machine only (NFS clients each work out the end of the file, and a
/// long line is more than one write anyway), and fcntl locks over NFS depend on the server's lock
/// manager. With one writer per file, nothing can interleave; a rerun of the shard appends to the
/// same file, and `smfplay report` takes the last line of each input. Within the process, a lock
/// and one `write()` per line keep the lines whole.
public final class RenderReportLog: Sendable {
    private let file: AppendOnlyFile
    private let shard: Shard?
    private let lock = Mutex(())
    /// Says a failed write, in one line.
    private let warn: @Sendable (String) -> Void

    /// Opens (creating) the report file for `shard`: `FILE.jsonl` itself without one.
    public init(_ path: FilePath, shard: Shard?, warn: @escaping @Sendable (String) -> Void) throws(FileWriteError) {
        self.warn = warn
        self.shard = shard
        file = try AppendOnlyFile(shard.map { Self.path(path, for: $0) } ?? path)
    }

    /// `report.jsonl` → `report.shard-2-of-8.jsonl`; a name without `.jsonl` gets the shard at its end.
    static func path(_ path: FilePath, for shard: Shard) -> FilePath {
        let tag = "shard-\(shard.index)-of-\(shard.count)"
        var named = path
        if path.extension == "jsonl" {
            named.extension = tag + ".jsonl"
        } else {
            named = FilePath(bytes: path.bytes + Array(".\(tag)".utf8))
        }
        return named
    }

    /// Appends the report as one line, with the shard. A failed write (a full disk) is said once
    /// per line on standard error; the render goes on.
    public func append(_ report: RenderReport) {
        var report = report
        report.shard = shard?.description
        let line = report.line
        let reason = lock.withLock { _ in write(line) }
        if let reason { warn(FileWriteError(path: file.path, reason: reason).description) }
    }

    /// Why `line` did not all go to the file; nil when it did.
    private func write(_ line: [UInt8]) -> String? {
        do {
            return try file.append(line) == line.count ? nil : "only part of a line was written"
        } catch {
            return SystemError.text(error.rawValue)
        }
    }
}
