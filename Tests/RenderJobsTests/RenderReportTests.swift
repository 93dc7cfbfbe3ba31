import Foundation
import Testing

@testable import Playback
@testable import RenderJobs

/// One line of `render --json` and `--report`: its fields, rounded as documented, as one line of
/// JSON with sorted keys.
@Suite("RenderReport")
struct RenderReportTests {
    static let job = RenderJob(input: "in/a.mid", output: "out/a.wav")

    /// The line's fields, and that it is one line.
    static func fields(_ report: RenderReport) throws -> [String: Any] {
        let line = report.line
        #expect(line.last == UInt8(ascii: "\n") && line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    @Test("a rendered file: lengths and render time to the millisecond, the peak and the limiter's reduction in dB to the hundredth")
    func rendered() throws {
        let result = RenderResult(songSeconds: 1.23456, audioSeconds: 2.34567, peak: 0.5, normalizationGain: 1, limiterReductionDecibels: 0.126)
        let fields = try Self.fields(RenderReport(job: Self.job, result: result, warnings: ["a warning"], renderSeconds: 3.14159))
        #expect(fields["status"] as? String == "rendered")
        #expect(fields["input"] as? String == "in/a.mid" && fields["output"] as? String == "out/a.wav")
        #expect(fields["seconds"] as? Double == 2.346)
        #expect(fields["songSeconds"] as? Double == 1.235)
        #expect(fields["renderSeconds"] as? Double == 3.142)
        #expect(fields["peakDecibels"] as? Double == -6.02)
        #expect(fields["limiterReductionDecibels"] as? Double == 0.13)
        #expect(fields["warnings"] as? [String] == ["a warning"])
        #expect(fields["error"] == nil && fields["shard"] == nil)
    }

    @Test("a silent file has no peak; a render not timed has no render time")
    func silentAndUntimed() throws {
        let result = RenderResult(songSeconds: 1, audioSeconds: 1, peak: 0, normalizationGain: 1)
        let fields = try Self.fields(RenderReport(job: Self.job, result: result, warnings: [], renderSeconds: nil))
        #expect(fields["peakDecibels"] == nil && fields["renderSeconds"] == nil)
        #expect(fields["limiterReductionDecibels"] as? Double == 0)
    }

    @Test("a failure: the line, exactly (sorted keys, slashes as they are, nothing of a render)")
    func failed() {
        let line = RenderReport(job: Self.job, error: "in/a.mid: broken").line
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"error":"in/a.mid: broken","input":"in/a.mid","output":"out/a.wav","status":"failed","warnings":[]}"# + "\n")
    }

    @Test("an output up to date is skipped; a problem found before rendering is a failure, with its output when it has one")
    func skippedAndProblems() throws {
        let skipped = try Self.fields(RenderReport(skipped: Self.job))
        #expect(skipped["status"] as? String == "skipped" && skipped["output"] as? String == "out/a.wav" && skipped["seconds"] == nil)
        let withOutput = try Self.fields(
            RenderReport(problem: RenderProblem(input: "in/a.mid", output: "out/a.wav", description: "taken"), input: "in/a.mid"))
        #expect(
            withOutput["status"] as? String == "failed" && withOutput["error"] as? String == "taken" && withOutput["output"] as? String == "out/a.wav"
        )
        let withoutOutput = try Self.fields(RenderReport(problem: RenderProblem(input: "in", description: "in: no MIDI files"), input: "in"))
        #expect(withoutOutput["input"] as? String == "in" && withoutOutput["output"] == nil)
    }

    @Test("a line reads back as the report it was")
    func roundTrip() throws {
        let result = RenderResult(songSeconds: 1, audioSeconds: 2, peak: 0.25, normalizationGain: 1)
        let report = RenderReport(job: Self.job, result: result, warnings: ["w"], renderSeconds: 0.5)
        #expect(try JSONDecoder().decode(RenderReport.self, from: Data(report.line)) == report)
    }
}
