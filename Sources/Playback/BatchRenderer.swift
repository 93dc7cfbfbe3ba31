import SMF
import Synchronization
import Synthesis
import SystemPackage
import WorkerThreads

/// Renders many songs at once, one synthesizer per worker, each worker taking
/// the next job as it finishes one. A job that fails is reported; the rest go on.
///
/// The cores go to files while there are files enough for them; a song started while cores are
/// free (the only one, or the last ones of a batch) is split across them, its keys shared
/// out among synthesizers (``SongRenderer/render(_:to:options:cores:cancellation:progress:)``).
public final class BatchRenderer: Sendable {
    private let renderers: [SongRenderer]
    private let options: RenderOptions
    private let cores: Int
    private let songSettings: SongSettingsSource?

    /// A song's own settings (its folder's), asked for each song by its file; nil for the batch's
    /// own. Called from the workers. A song whose settings cannot be had fails with the error.
    public typealias SongSettingsSource = @Sendable (FilePath) throws(RenderError) -> SongSettings?

    /// Creates a synthesizer for each worker up front (one per core, at most one per job), so
    /// that a bad SoundFont stops the batch before it starts rather than failing every file.
    public init(
        settings: SynthesizerSettings, soundFonts: SoundFontStack, options: RenderOptions, cores: Int, jobCount: Int,
        songSettings: SongSettingsSource? = nil
    ) throws(SynthesisError) {
        var renderers: [SongRenderer] = []
        for _ in 0..<max(1, min(cores, jobCount)) {
            renderers.append(SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFonts: soundFonts)))
        }
        self.renderers = renderers
        self.options = options
        self.cores = max(1, cores)
        self.songSettings = songSettings
    }

    /// The cores this process may use (its CPU affinity: `taskset`, a cgroup's cpuset).
    public static var availableCores: Int { WorkerThreads.processorCount }

    /// Renders every job and returns when all are done, or when cancelled (the
    /// renders in progress then stop and leave nothing); `report` is called from the workers.
    public func run(_ jobs: [RenderJob], cancellation: Cancellation = Cancellation(), report: @escaping @Sendable (BatchEvent) -> Void) {
        /// The next job to take, and how many workers are rendering.
        let state = Mutex((next: 0, rendering: 0))
        let options = options
        let cores = cores
        let renderers = renderers
        let songSettings = songSettings
        WorkerThreads.run(count: min(renderers.count, jobs.count)) { worker in
            // Each worker renders with its own.
            let renderer = renderers[worker]
            while true {
                let (index, songCores) = state.withLock { state in
                    defer {
                        state.next += 1
                        state.rendering += 1
                    }
                    return (state.next, max(1, cores - state.rendering))
                }
                defer { state.withLock { $0.rendering -= 1 } }
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
                    let songBank = options.songBanks.bank(forSongAt: job.input, embedded: read.file.embeddedSoundBank)
                    let sound = try songSettings?(job.input)
                    let result = try renderer.render(
                        Song(file: read.file), to: job.output, options: options.with(sound).tagging(read.file, input: job.input),
                        cores: songCores, songBank: songBank, sound: sound,
                        cancellation: cancellation
                    ) { fraction in
                        report(.progress(index: index, fraction: fraction))
                    }
                    report(.finished(index: index, result, warnings: result.warnings(reading: read)))
                } catch {
                    report(.failed(index: index, error))
                }
            }
        }
    }
}
