import Foundation
import Playback
import Synchronization
import SystemPackage

/// One line of `smfplay render --json`: what became of one MIDI file.
struct RenderReport: Encodable {
    var input: String
    var output: String
    /// The audio's length, tail included; nil when the render failed.
    var seconds: Double?
    /// The loudest sample, in dBFS; nil for a silent file (and a failed render).
    var peakDecibels: Double?
    /// How far the limiter turned the loudest moment down, in dB (0: not at all).
    var limiterReductionDecibels: Double?
    var warnings: [String]
    var error: String?

    init(job: RenderJob, result: RenderResult, warnings: [String]) {
        input = job.input.text
        output = job.output.text
        seconds = result.audioSeconds
        peakDecibels = result.peak > 0 ? (20 * log10(Double(result.peak)) * 100).rounded() / 100 : nil
        limiterReductionDecibels = (result.limiterReductionDecibels * 100).rounded() / 100
        self.warnings = warnings
    }

    init(job: RenderJob, error: String) {
        input = job.input.text
        output = job.output.text
        warnings = []
        self.error = error
    }
}

/// Prints JSON lines from the render's worker threads, one whole line at a time.
final class RenderReportPrinter: Sendable {
    private let lock = Mutex(())

    func print(_ report: RenderReport) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return }
        lock.withLock { _ in writeToStandardOutput(String(decoding: data, as: UTF8.self) + "\n") }
    }
}
