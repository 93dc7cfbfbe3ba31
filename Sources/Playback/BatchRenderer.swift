import SMF
import Synchronization
import WorkerThreads
import Synthesis

/// Renders many songs at once, one synthesizer per worker, each worker taking
/// the next job as it finishes one. A job that fails is reported; the rest go on.
public final class BatchRenderer: Sendable {
    private let renderers: [SendableRenderer]
    private let options: RenderOptions

    /// Creates `workers` synthesizers up front, so that a bad SoundFont stops
    /// the batch before it starts rather than failing every file.
    public init(settings: SynthesizerSettings, soundFonts: SoundFontStack, options: RenderOptions, workers: Int) throws(SynthesisError) {
        var renderers: [SendableRenderer] = []
        for _ in 0..<max(1, workers) {
            renderers.append(SendableRenderer(SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFonts: soundFonts))))
        }
        self.renderers = renderers
        self.options = options
    }

    /// Renders every job and returns when all are done, or when cancelled (the
    /// renders in progress then stop and leave nothing); `report` is called from the workers.
    public func run(_ jobs: [RenderJob], cancellation: Cancellation = Cancellation(), report: @escaping @Sendable (BatchEvent) -> Void) {
        let next = Mutex(0)
        let options = options
        WorkerThreads.run(count: min(renderers.count, jobs.count)) { worker in
            let renderer = renderers[worker].renderer
            while true {
                let index = next.withLock { index in
                    defer { index += 1 }
                    return index
                }
                guard index < jobs.count, !cancellation.isCancelled else { return }
                report(.started(index: index))
                do throws(RenderError) {
                    let job = jobs[index]
                    let read: SMFReader.Output
                    do throws(SMFFileError) {
                        read = try SMFReader().read(path: job.input)
                    } catch {
                        throw .unreadableSong(error)
                    }
                    let result = try renderer.render(Song(file: read.file), to: job.output, options: options, cancellation: cancellation) { fraction in
                        report(.progress(index: index, fraction: fraction))
                    }
                    let omitted = read.omittedWarningCount > 0 ? ["\(read.omittedWarningCount) more warnings not shown"] : []
                    report(.finished(index: index, result, warnings: read.warnings.map(\.description) + omitted + result.substitutions.map(\.description)
                                                                + (result.loopProblem.map { [$0] } ?? [])))
                } catch {
                    report(.failed(index: index, error))
                }
            }
        }
    }
}

/// A renderer handed to exactly one worker thread.
private struct SendableRenderer: @unchecked Sendable {
    let renderer: SongRenderer

    init(_ renderer: SongRenderer) {
        self.renderer = renderer
    }
}
