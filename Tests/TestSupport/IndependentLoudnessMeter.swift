import Foundation

/// EBU R128 integrated loudness and true peak of an audio file as ffmpeg's `ebur128` filter
/// measures them (Debian's ffmpeg): a meter that is not smfplay's, with its own K-weighting and
/// its own look between samples (it resamples to 192 kHz), to check what smfplay says and writes.
public enum IndependentLoudnessMeter {
    public static let ffmpeg = "/usr/bin/ffmpeg"

    public struct Reading: Sendable, CustomStringConvertible {
        /// In LUFS, to a tenth (as ffmpeg prints it).
        public var integratedLUFS: Double
        /// In dBTP, to a tenth.
        public var truePeakDBTP: Double

        public var description: String { "\(integratedLUFS) LUFS, \(truePeakDBTP) dBTP" }
    }

    public static func measure(_ path: String) throws -> Reading {
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw TestFailure("ffmpeg is missing: install Debian's ffmpeg (make deps)")
        }
        let result = try Command(
            URL(fileURLWithPath: ffmpeg), arguments: ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
            timeLimit: 120
        ).run()
        guard result.succeeded else { throw TestFailure("ffmpeg could not measure \(path): \(result)") }
        // The summary at the end: "I:  -18.0 LUFS" under "Integrated loudness", "Peak:  -1.2 dBFS" under "True peak".
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        guard let loudness = value(after: "I:", in: summary), let peak = value(after: "Peak:", in: summary) else {
            throw TestFailure("no loudness in ffmpeg's summary for \(path): \(summary)")
        }
        return Reading(integratedLUFS: loudness, truePeakDBTP: peak)
    }

    private static func value(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return text[range.upperBound...].split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
    }
}
