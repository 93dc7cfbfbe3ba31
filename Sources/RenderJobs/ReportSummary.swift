import Foundation

/// What the `--report` files of a render say, all shards together: each input's last line counts
/// (a rerun's `skipped` after a first run's `rendered` is still a rendered file, with the audio
/// that run made).
public struct ReportSummary {
    /// Each input's last report, and the last one that rendered it.
    private var latest: [String: RenderReport] = [:]
    private var lastRendered: [String: RenderReport] = [:]
    /// Inputs in the order they were first seen.
    private var order: [String] = []
    /// Lines that are not reports: "file:line".
    public private(set) var unreadableLines: [String] = []
    private(set) var shards: Set<String> = []

    /// Adds a report file's lines; `name` is how messages call the file.
    public init() {}

    public mutating func add(_ bytes: [UInt8], name: String) {
        let decoder = JSONDecoder()
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let report = try? decoder.decode(RenderReport.self, from: Data(line)) else {
                unreadableLines.append("\(name):\(number + 1)")
                continue
            }
            if latest.updateValue(report, forKey: report.input) == nil { order.append(report.input) }
            if report.status == .rendered { lastRendered[report.input] = report }
            if let shard = report.shard { shards.insert(shard) }
        }
    }

    var inputCount: Int { order.count }

    func count(_ status: RenderReport.Status) -> Int {
        latest.values.filter { $0.status == status }.count
    }

    /// The inputs whose last report is a failure, with their errors, in the order first seen.
    public var failures: [RenderReport] {
        order.compactMap { latest[$0] }.filter { $0.status == .failed }
    }

    /// The audio of every input rendered (by its last render), and the time those renders took.
    var audioSeconds: Double { renderedNow.reduce(0) { $0 + ($1.seconds ?? 0) } }
    var renderSeconds: Double { renderedNow.reduce(0) { $0 + ($1.renderSeconds ?? 0) } }

    /// Reports of the inputs that stand rendered: rendered last, or skipped after a render.
    private var renderedNow: [RenderReport] {
        order.filter { latest[$0]?.status != .failed }.compactMap { lastRendered[$0] }
    }

    /// The summary as `smfplay report` prints it.
    public var text: String {
        var lines = [
            "\(inputCount) input\(inputCount == 1 ? "" : "s"): \(count(.rendered)) rendered, \(count(.skipped)) up to date, \(count(.failed)) failed"
        ]
        if !shards.isEmpty {
            lines.append("shards: \(shards.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.joined(separator: ", "))")
        }
        lines.append(String(format: "audio: %.2f hours", audioSeconds / 3600))
        if renderSeconds > 0 {
            lines.append(
                String(
                    format: "render time: %.2f hours, summed over files; %.1f× real time per file rendering; %.0f files an hour per rendering core",
                    renderSeconds / 3600, audioSeconds / renderSeconds, Double(renderedNow.count) / renderSeconds * 3600))
        }
        if !failures.isEmpty {
            lines.append("failed:")
            // Errors name their file already, most of them.
            lines += failures.map { report in
                let error = report.error ?? "unknown error"
                return "  " + (error.hasPrefix(report.input) ? error : "\(report.input): \(error)")
            }
        }
        if !unreadableLines.isEmpty {
            lines.append("not report lines: \(unreadableLines.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
