import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Shows how a render is going: a redrawn bar on a terminal, one line per file
/// otherwise, nothing with `--quiet`. Safe to call from any thread.
public final class ProgressDisplay: Sendable {
    enum Style {
        case bar
        case lines
        case quiet
    }

    private struct State {
        var filesDone = 0
        /// Fraction done of each file in progress, by job index.
        var inFlight: [Int: Double] = [:]
        var audioSecondsRendered = 0.0
        var lastDraw = 0.0
        var lineWidth = 0
    }

    private let style: Style
    private let totalFiles: Int
    private let start = Date()
    private let state = Mutex(State())

    public init(totalFiles: Int, quiet: Bool) {
        self.totalFiles = totalFiles
        style = quiet ? .quiet : isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }

    public func progress(index: Int, fraction: Double) {
        guard style == .bar else { return }
        let line: String? = state.withLock { state in
            state.inFlight[index] = fraction
            let now = Date().timeIntervalSince(start)
            // A terminal redrawn more than ten times a second only costs time.
            guard now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            return barLine(state, elapsed: now)
        }
        line.map(draw)
    }

    /// A file is done: `message` is printed as a line of its own (above the bar on a terminal),
    /// after its `warnings`, which go to standard error whatever the style (`--quiet` too).
    public func finished(index: Int, audioSeconds: Double, message: String?, isError: Bool = false, warnings: [String] = []) {
        state.withLock { state in
            state.filesDone += 1
            state.inFlight[index] = nil
            state.audioSecondsRendered += audioSeconds
            let elapsed = Date().timeIntervalSince(start)
            if style == .bar { clear(&state) }
            warnings.forEach { printError($0) }
            switch style {
            case .quiet:
                if isError, let message { printError(message) }
            case .lines:
                // Unbuffered, so that `smfplay render … | tee log` shows each file as it is done.
                if let message { isError ? printError(message) : writeToStandardOutput(message + "\n") }
            case .bar:
                if let message { isError ? printError(message) : printErrorStreamLine(message) }
                let line = barLine(state, elapsed: elapsed)
                state.lineWidth = line.count
                writeToStandardError("\r" + line)
            }
        }
    }

    /// Clears the bar before the summary.
    public func end() {
        guard style == .bar else { return }
        state.withLock { state in clear(&state) }
    }

    public var elapsedSeconds: Double { Date().timeIntervalSince(start) }

    private func draw(_ line: String) {
        state.withLock { state in
            let padding = max(0, state.lineWidth - line.count)
            state.lineWidth = line.count
            writeToStandardError("\r" + line + String(repeating: " ", count: padding))
        }
    }

    private func clear(_ state: inout State) {
        writeToStandardError("\r" + String(repeating: " ", count: state.lineWidth) + "\r")
        state.lineWidth = 0
    }

    private func barLine(_ state: State, elapsed: Double) -> String {
        let done = (Double(state.filesDone) + state.inFlight.values.reduce(0, +)) / Double(max(totalFiles, 1))
        let width = 24
        let filled = Int((done * Double(width)).rounded(.down))
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        line += " \(state.filesDone)/\(totalFiles) files \(Int(done * 100))%"
        if state.audioSecondsRendered > 0, elapsed > 0 {
            line += String(format: "  %.1f× real time", state.audioSecondsRendered / elapsed)
        }
        if done > 0.01 {
            line += "  " + formatDuration(elapsed / done * (1 - done)).prefix { $0 != "." } + " left"
        }
        return line
    }
}

/// Writes text to standard error without a newline.
public func writeToStandardError(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

/// A plain line on standard error (progress talk, not an error).
private func printErrorStreamLine(_ line: String) {
    writeToStandardError(line + "\n")
}
