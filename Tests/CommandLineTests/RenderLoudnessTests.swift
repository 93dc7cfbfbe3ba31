import Foundation
import TestSupport
import Testing

/// `smfplay render --json` reports each file's EBU R128 loudness and true peak (libebur128), as
/// measured on what was written.
@Suite("smfplay render: loudness in the report")
struct RenderLoudnessTests {
    struct Line: Decodable {
        var loudnessLUFS: Double?
        var truePeakDBTP: Double?
    }

    /// The report's one line for rendering `song.mid` at `gain`.
    private func report(_ sandbox: Sandbox, gain: String, output: String) throws -> Line {
        let result = try sandbox.run([
            "render", "song.mid", "-o", output, "--gain", gain, "--no-limiter", "--json", "--soundfont", TestSoundFont.required().string,
        ])
        #expect(result.succeeded, "\(result)")
        let line = try #require(result.stdout.split(separator: "\n").first, "no report line: \(result)")
        return try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }

    @Test("a song rendered at gain 0.5 measures 6.0 ± 0.1 LU below the same at gain 1, its true peak as far down")
    func loudnessFollowsTheGain() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "song.mid",
            Songs.song(program: 0, notes: [(60, 0, Songs.ticksPerSecond), (64, 0, 2 * Songs.ticksPerSecond)], length: 3 * Songs.ticksPerSecond))
        let loud = try report(sandbox, gain: "1", output: "loud.wav")
        let quiet = try report(sandbox, gain: "0.5", output: "quiet.wav")
        let loudLUFS = try #require(loud.loudnessLUFS, "no loudness reported")
        let quietLUFS = try #require(quiet.loudnessLUFS, "no loudness reported")
        #expect(loudLUFS < 0 && loudLUFS > -70, "\(loudLUFS) LUFS")
        #expect(abs((loudLUFS - quietLUFS) - 6.02) <= 0.1, "\(loudLUFS) against \(quietLUFS) LUFS")
        let loudPeak = try #require(loud.truePeakDBTP)
        let quietPeak = try #require(quiet.truePeakDBTP)
        #expect(abs((loudPeak - quietPeak) - 6.02) <= 0.1, "\(loudPeak) against \(quietPeak) dBTP")
    }
}
