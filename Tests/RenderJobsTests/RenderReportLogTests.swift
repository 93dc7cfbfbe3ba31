import Files
import Foundation
import Playback
import SystemPackage
import TestSupport
import Testing

@testable import RenderJobs

/// `render --report FILE.jsonl`: each shard appends to a file of its own, named for the shard,
/// its lines saying the shard; a rerun appends to the same file.
@Suite("RenderReportLog")
struct RenderReportLogTests {
    @Test(
        "a shard's file is named for it, before .jsonl or at the end of another name",
        arguments: [
            ("report.jsonl", "report.shard-2-of-8.jsonl"), ("runs/r.jsonl", "runs/r.shard-2-of-8.jsonl"), ("report", "report.shard-2-of-8"),
            ("report.txt", "report.txt.shard-2-of-8"),
        ])
    func shardFileNames(given: String, named: String) {
        #expect(RenderReportLog.path(FilePath(given), for: Shard(index: 2, count: 8)) == FilePath(named))
    }

    /// The lines of a report file.
    static func lines(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("a shard's lines say the shard; a rerun appends; without a shard, the file given, no shard said")
    func appends() throws {
        let folder = try TemporaryFolder()
        let job = RenderJob(input: "in/a.mid", output: "out/a.wav")
        for _ in 0..<2 {
            let log = try RenderReportLog(folder.filePath("r.jsonl"), shard: Shard(index: 1, count: 3), warn: { Issue.record("\($0)") })
            log.append(RenderReport(skipped: job))
        }
        let lines = try Self.lines(folder.file("r.shard-1-of-3.jsonl"))
        #expect(lines.count == 2 && lines.allSatisfy { $0["shard"] as? String == "1/3" && $0["status"] as? String == "skipped" })
        #expect(try folder.contents() == ["r.shard-1-of-3.jsonl"])

        try RenderReportLog(folder.filePath("r.jsonl"), shard: nil, warn: { Issue.record("\($0)") }).append(RenderReport(job: job, error: "broken"))
        let unsharded = try Self.lines(folder.file("r.jsonl"))
        #expect(unsharded.count == 1 && unsharded[0]["shard"] == nil && unsharded[0]["error"] as? String == "broken")
    }

    @Test("a report file that cannot be made is an error naming it")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        #expect(throws: FileWriteError.self) {
            try RenderReportLog(folder.filePath("missing/r.jsonl"), shard: nil, warn: { _ in })
        }
    }
}
