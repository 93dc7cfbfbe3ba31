import RenderJobs
import Synchronization
import TerminalUI

/// Prints JSON lines from the render's worker threads, one whole line at a time.
final class RenderReportPrinter: Sendable {
    private let lock = Mutex(())

    init() {}

    func print(_ report: RenderReport) {
        let line = report.line
        lock.withLock { _ in writeToStandardOutput(line) }
    }
}
