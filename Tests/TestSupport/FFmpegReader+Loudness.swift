import Foundation
import Testing

/// EBU R128 integrated loudness and true peak as ffmpeg's `ebur128` filter measures them: a meter
/// that is not smfplay's (libebur128), with its own K-weighting and its own look between samples
/// (it resamples to 192 kHz), to check what smfplay says and writes.
extension FFmpegReader {
    public struct LoudnessReading: Sendable, CustomStringConvertible {
        /// In LUFS, to a tenth (as ffmpeg prints it).
        public var integratedLUFS: Double
        /// In dBTP, to a tenth.
        public var truePeakDBTP: Double

        public var description: String { "\(integratedLUFS) LUFS, \(truePeakDBTP) dBTP" }
    }

    public static func loudness(_ path: String) throws -> LoudnessReading {
        try loudness(ofOneAfterAnother: [path])
    }

    /// Files heard one after another as one recording (an album), measured as one: gated as one.
    public static func loudness(ofOneAfterAnother paths: [String]) throws -> LoudnessReading {
        try require()
        let path = paths.joined(separator: " + ")
        let inputs = paths.flatMap { ["-i", $0] }
        let concatenated = paths.indices.map { "[\($0):a]" }.joined() + "concat=n=\(paths.count):v=0:a=1,ebur128=peak=true"
        let result = try Command(
            URL(fileURLWithPath: ffmpeg), arguments: ["-hide_banner", "-nostats"] + inputs + ["-filter_complex", concatenated, "-f", "null", "-"],
            timeLimit: 120
        ).run()
        try #require(result.succeeded, "ffmpeg could not measure \(path): \(result)")
        // The summary at the end: "I:  -18.0 LUFS" under "Integrated loudness", "Peak:  -1.2 dBFS" under "True peak".
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        let loudness = try #require(value(after: "I:", in: summary), "no loudness in ffmpeg's summary for \(path): \(summary)")
        let peak = try #require(value(after: "Peak:", in: summary), "no true peak in ffmpeg's summary for \(path): \(summary)")
        return LoudnessReading(integratedLUFS: loudness, truePeakDBTP: peak)
    }

    private static func value(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return text[range.upperBound...].split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
    }
}
