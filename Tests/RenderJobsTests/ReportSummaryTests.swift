import SystemPackage
import Testing

@testable import Playback
@testable import RenderJobs

/// `smfplay report`: the reports of every shard merged, each input counted once by its last line.
@Suite("ReportSummary")
struct ReportSummaryTests {
    static func job(_ name: String) -> RenderJob { RenderJob(input: FilePath("in/\(name).mid"), output: FilePath("out/\(name).wav")) }

    /// A rendered file's report: an hour of audio (`audioSeconds`) rendered in `renderSeconds`, by `shard`.
    static func rendered(_ name: String, audioSeconds: Double = 3600, renderSeconds: Double = 360, shard: String? = nil) -> RenderReport {
        var report = RenderReport(
            job: job(name), result: RenderResult(songSeconds: audioSeconds, audioSeconds: audioSeconds, peak: 0.5, normalizationGain: 1),
            warnings: [], renderSeconds: renderSeconds)
        report.shard = shard
        return report
    }

    /// A summary of report files, each given as its reports.
    static func summary(_ files: [RenderReport]...) -> ReportSummary {
        var summary = ReportSummary()
        for (index, reports) in files.enumerated() { summary.add(reports.flatMap(\.line), name: "r\(index).jsonl") }
        return summary
    }

    @Test("an input's last line counts: up to date after a render keeps that render's audio and time")
    func lastLineCounts() {
        let summary = Self.summary([Self.rendered("a"), Self.rendered("b")], [RenderReport(skipped: Self.job("a"))])
        #expect(
            summary.text == """
                2 inputs: 1 rendered, 1 up to date, 0 failed
                audio: 2.00 hours
                render time: 0.20 hours, summed over files; 10.0× real time per file rendering; 10 files an hour per rendering core
                """)
    }

    @Test("a failure rendered by a rerun is no failure; a render that fails after one is, and its audio no longer counts")
    func rerunsDecide() {
        let summary = Self.summary(
            [RenderReport(job: Self.job("a"), error: "in/a.mid: broken"), Self.rendered("b")],
            [Self.rendered("a"), RenderReport(job: Self.job("b"), error: "in/b.mid: broken")])
        #expect(summary.failures.map(\.input) == ["in/b.mid"])
        #expect(summary.text.hasPrefix("2 inputs: 1 rendered, 0 up to date, 1 failed\naudio: 1.00 hours\n"), "\(summary.text)")
    }

    @Test("failures are listed in the order their inputs were first seen, each error naming its file once")
    func failuresListed() {
        let summary = Self.summary(
            [RenderReport(job: Self.job("z"), error: "in/z.mid: no such file or directory"), Self.rendered("a", renderSeconds: 0)],
            [RenderReport(job: Self.job("b"), error: "cannot write")])
        #expect(
            summary.text == """
                3 inputs: 1 rendered, 0 up to date, 2 failed
                audio: 1.00 hours
                failed:
                  in/z.mid: no such file or directory
                  in/b.mid: cannot write
                """)
    }

    @Test("lines that are not reports are counted by file and line number; empty lines are not lines")
    func unreadableLines() {
        var summary = ReportSummary()
        summary.add(Self.rendered("a").line + Array("\n{\"input\": 1}\nnot JSON\n".utf8), name: "r.jsonl")
        summary.add(Array("{".utf8), name: "s.jsonl")
        #expect(summary.unreadableLines == ["r.jsonl:3", "r.jsonl:4", "s.jsonl:1"])
        #expect(summary.text.hasSuffix("\nnot report lines: r.jsonl:3, r.jsonl:4, s.jsonl:1"), "\(summary.text)")
        #expect(summary.text.hasPrefix("1 input: 1 rendered"), "\(summary.text)")
    }

    @Test("the shards that reported, in numeric order")
    func shardsListed() {
        let summary = Self.summary([Self.rendered("a", shard: "10/12")], [Self.rendered("b", shard: "2/12"), Self.rendered("c", shard: "2/12")])
        #expect(summary.text.split(separator: "\n").dropFirst().first == "shards: 2/12, 10/12", "\(summary.text)")
    }
}
