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
    /// Guards the writes, and counts the lines left out.
    private let lock = Mutex(0)
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

    /// Appends the report as one line, with the shard. A line that cannot be written whole (a
    /// full disk) is taken back and left out, and the first is said on standard error, in one
    /// line; the render goes on, and `linesLeftOut` says how many the report lacks.
    public func append(_ report: RenderReport) {
        var report = report
        report.shard = shard?.description
        let line = report.line
        let reason = lock.withLock { leftOut in
            let reason = write(line)
            if reason != nil { leftOut += 1 }
            return leftOut == 1 ? reason : nil
        }
        if let reason { warn(FileWriteError(path: file.path, reason: reason).description + "; the report lacks what follows") }
    }

    /// Lines that could not be written: the report lacks them.
    public var linesLeftOut: Int { lock.withLock { $0 } }

    /// Why `line` did not all go to the file; nil when it did. A write the disk took only part of
    /// is followed by one of the rest, which says why (or, with room again, ends the line); part
    /// of a line is taken back: the next line must not run on from it.
    private func write(_ line: [UInt8]) -> String? {
        var written = 0
        do throws(Errno) {
            while written < line.count { written += try file.append(Array(line[written...])) }
            return nil
        } catch {
            try? file.takeBack(written)
            return SystemError.text(error.rawValue)
        }
    }
}
