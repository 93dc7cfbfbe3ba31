import Configuration
import Files
import Playback
import RenderJobs
import Synchronization
import Synthesis
import SystemPackage
import TerminalUI

/// `smfplay index --loudness`: every song under the library folder measured as `render` would
/// sound it (the configuration's SoundFonts and settings, each folder's `.smfplay.toml`, the
/// command line's sound options), on all cores, and kept in the library index; songs known with
/// that sound are skipped, so a run stopped half-way goes on where it stopped.
struct LibraryLoudness {
    let root: FilePath
    let settings: RenderSettings
    let soundFonts: SoundFontStack
    let folders: FolderSettingsForSongs
    let quiet: Bool

    /// What a run did.
    struct Summary {
        var measured = 0
        var known = 0
        var failed = 0
        var songSeconds = 0.0
    }

    /// Measures, showing progress on standard error; failures and warnings are printed as they come.
    func run(memory: IndexedLoudnessMemory, cancellation: Cancellation) throws(CommandFailure) -> (Summary, seconds: Double) {
        let songs = RenderInputs(inputs: [root], manifest: nil).items.map(\.input)
        let cores = settings.jobCount(processorCount: BatchRenderer.availableCores)
        let measurer: BatchRenderer
        do {
            measurer = try BatchRenderer(
                settings: settings.synthesizerSettings, soundFonts: soundFonts, options: settings.renderOptions(), cores: cores,
                jobCount: songs.count, songSettings: folders.forRendering)
        } catch {
            throw CommandFailure(error.description)
        }
        let display = ProgressDisplay(totalFiles: songs.count, quiet: quiet)
        let summary = Mutex(Summary())
        measurer.measure(songs, in: memory, cancellation: cancellation) { event in
            switch event {
            case .started:
                break
            case .progress(let index, let fraction):
                display.progress(index: index, fraction: fraction)
            case .finished(let index, let result, let warnings):
                summary.withLock {
                    $0.measured += 1
                    $0.songSeconds += result.songSeconds
                }
                display.finished(
                    index: index, audioSeconds: result.songSeconds, message: nil, warnings: warnings.map { "\(songs[index].text): warning: \($0)" })
            case .known(let index, _):
                summary.withLock { $0.known += 1 }
                display.finished(index: index, audioSeconds: 0, message: nil)
            case .failed(let index, let error):
                if !cancellation.isCancelled { summary.withLock { $0.failed += 1 } }
                display.finished(index: index, audioSeconds: 0, message: error.description, isError: true)
            }
        }
        display.end()
        return (summary.withLock { $0 }, display.elapsedSeconds)
    }

    /// One line: what was measured, known and failed, and how fast.
    static func text(_ summary: Summary, seconds: Double) -> String {
        var parts = ["measured the loudness of \(summary.measured) song\(summary.measured == 1 ? "" : "s")"]
        if summary.known > 0 { parts.append("\(summary.known) known") }
        if summary.failed > 0 { parts.append("\(summary.failed) failed") }
        var line = parts.joined(separator: ", ") + " in " + formatDuration(seconds)
        if summary.songSeconds > 0, seconds > 0 { line += " (\(RealTimeSpeed.text(audioSeconds: summary.songSeconds, elapsedSeconds: seconds)))" }
        return line
    }
}
