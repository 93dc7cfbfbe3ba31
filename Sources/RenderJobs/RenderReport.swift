import Foundation
import Playback
import Synchronization
import SystemPackage

/// One line of `smfplay render --json` and of `--report`: what became of one MIDI file.
public struct RenderReport: Codable, Equatable {
    enum Status: String, Codable {
        case rendered
        /// Its output was newer than the MIDI file.
        case skipped
        case failed
    }

    var input: String
    var output: String?
    /// The paths' bytes in base64 when they are not UTF-8 (a Shift-JIS name from an old CD-ROM):
    /// `input` and `output` are then decoded for reading, and a program opens the files by these.
    var inputBytes: String?
    var outputBytes: String?
    var status: Status
    /// The audio's length, tail included; nil unless rendered.
    var seconds: Double?
    /// The song's length, without the tail.
    var songSeconds: Double?
    /// How long the render took, in seconds.
    var renderSeconds: Double?
    /// The loudest sample, in dBFS; nil for a silent file (and a failed render).
    var peakDecibels: Double?
    /// How far the limiter turned the loudest moment down, in dB (0: not at all).
    var limiterReductionDecibels: Double?
    /// The file's EBU R128 integrated loudness, in LUFS, and its highest true peak, in dBTP
    /// (libebur128, on what was written); nil for a silent file.
    var loudnessLUFS: Double?
    var truePeakDBTP: Double?
    /// The gain normalization applied, in dB (0 without it).
    var normalizationGainDecibels: Double?
    var warnings: [String]
    var error: String?
    /// `I/N` when rendered as shard I of N.
    var shard: String?

    public init(job: RenderJob, result: RenderResult, warnings: [String], renderSeconds: Double?) {
        input = job.input.text
        output = job.output.text
        inputBytes = job.input.base64BytesUnlessUTF8
        outputBytes = job.output.base64BytesUnlessUTF8
        status = .rendered
        seconds = Self.rounded(result.audioSeconds, places: 3)
        songSeconds = Self.rounded(result.songSeconds, places: 3)
        self.renderSeconds = renderSeconds.map { Self.rounded($0, places: 3) }
        peakDecibels = result.peak > 0 ? Self.rounded(20 * log10(Double(result.peak)), places: 2) : nil
        limiterReductionDecibels = Self.rounded(result.limiterReductionDecibels, places: 2)
        loudnessLUFS = result.loudness.map { Self.rounded($0.integratedLUFS, places: 2) }
        truePeakDBTP = result.loudness?.truePeakDBTP.map { Self.rounded($0, places: 2) }
        normalizationGainDecibels = Self.rounded(20 * log10(Double(result.normalizationGain)), places: 2)
        self.warnings = warnings
    }

    public init(job: RenderJob, error: String) {
        input = job.input.text
        output = job.output.text
        inputBytes = job.input.base64BytesUnlessUTF8
        outputBytes = job.output.base64BytesUnlessUTF8
        status = .failed
        warnings = []
        self.error = error
    }

    public init(skipped job: RenderJob) {
        input = job.input.text
        output = job.output.text
        inputBytes = job.input.base64BytesUnlessUTF8
        outputBytes = job.output.base64BytesUnlessUTF8
        status = .skipped
        warnings = []
    }

    public init(problem: RenderProblem, input: FilePath) {
        self.input = input.text
        output = problem.output?.text
        inputBytes = input.base64BytesUnlessUTF8
        outputBytes = problem.output?.base64BytesUnlessUTF8
        status = .failed
        warnings = []
        error = problem.description
    }

    private static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// The report as one line of JSON, with its line break.
    public var line: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a number or an array of strings: encoding cannot fail.
        return Array((try? encoder.encode(self)) ?? Data()) + [UInt8(ascii: "\n")]
    }
}
