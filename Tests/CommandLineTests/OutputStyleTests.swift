import Foundation
import TestSupport
import Testing

/// What `smfplay render` prints when nobody watches a terminal: plain lines, or nothing with --quiet.
@Suite("smfplay render: output")
struct OutputStyleTests {
    @Test("--quiet prints nothing on success")
    func quiet() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song())
        try sandbox.write("in/b.mid", Fixtures.song())
        for arguments in [["render", "in/a.mid", "--quiet"], ["render", "in", "-o", "out", "-q"]] {
            let result = try sandbox.run(arguments + Fixtures.fast)
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
        #expect(sandbox.files() == ["in/a.mid", "in/a.wav", "in/b.mid", "out/a.wav", "out/b.wav"])
    }

    @Test("not on a terminal: one plain line per file and a summary, no carriage returns or escape codes")
    func plainLines() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song(beats: 2))
        try sandbox.write("in/sub/b.mid", Fixtures.song(beats: 6))
        try sandbox.write("in/broken.mid", Fixtures.truncatedEvent)
        let result = try sandbox.run(["render", "in", "-o", "out", "--jobs", "1"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.hasTerminalControls, "\(result)")
        #expect(!result.stderr.hasTerminalControls, "\(result)")
        #expect(result.stdoutLines.count == 3, "\(result)")
        #expect(result.stdoutLines.contains("out/sub/b.wav (0:03.0)"), "\(result)")
        #expect(result.stdoutLines.contains("out/a.wav (0:01.0)"), "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("rendered 2 files, 1 failed in ") == true, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
    }

    /// `smfplay render … | tee log`: a line that waits in a buffer until the whole batch is done
    /// tells the person watching nothing.
    @Test("not on a terminal, each file's line is written when the file is done, not when the batch ends")
    func linesAreNotHeldBack() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        // A folder's largest file renders first: the short song's long title makes it that one.
        try sandbox.write("in/1 short.mid", Fixtures.song(beats: 1, title: String(repeating: "Short ", count: 500)))
        // Four minutes of sparse notes: about a second to render in a debug build.
        try sandbox.write("in/2 long.mid", Fixtures.sparseSong(seconds: 240))
        let result = try sandbox.run(["render", "in", "-o", "out", "--jobs", "1", "--sample-rate", "22050"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        let firstLine = try #require(result.stdoutLines.first, "\(result)")
        #expect(firstLine.hasPrefix("out/1 short.wav"), "\(result)")
        let firstLineArrived = try #require(result.arrivalOfStandardOutput(byte: firstLine.utf8.count))
        let lead = result.standardOutputEnd - firstLineArrived
        // The second file takes most of the run; its line and the summary come at the end.
        #expect(
            lead > 0.2,
            """
            the first file's line came \(String(format: "%.3f", lead)) s before the end of a \
            \(String(format: "%.2f", result.elapsed)) s run: it was held in a buffer
            """)
    }
}
