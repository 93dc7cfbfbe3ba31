import SMF
import Synchronization
import Synthesis
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Renders many songs at once, one synthesizer per worker, each worker taking
/// the next job as it finishes one. A job that fails is reported; the rest go on.
///
/// Songs start largest file first (its size standing for its render time, as a cluster's shards
/// weigh it, ``BalancedSplit``), so that the batch ends on its smallest songs, the workers within
/// a short song of one another, rather than with one core rendering a long song alone. The cores
/// go to files while there are files enough for them; a song started while cores would otherwise
/// stay idle (the only one, or the last one once the other workers are done) is split across
/// them, its keys shared out among synthesizers
/// (``SongRenderer/render(_:to:options:cores:cancellation:progress:)``).
/// With ``RenderOptions/stems``, each job's output is the folder of its song's stems
/// (``StemRenderer``), which one synthesizer renders: no song is split.
public final class BatchRenderer: Sendable {
    private let renderers: [SongRenderer]
    private let options: RenderOptions
    private let cores: Int
    private let songSettings: SongSettingsSource?
    private let loudnessMemory: (any LoudnessMemory)?

    /// A song's own settings (its folder's), asked for each song by its file; nil for the batch's
    /// own. Called from the workers. A song whose settings cannot be had fails with the error.
    public typealias SongSettingsSource = @Sendable (FilePath) throws(RenderError) -> SongSettings?

    /// Creates a synthesizer for each worker up front (one per core, at most one per job), so
    /// that a bad SoundFont stops the batch before it starts rather than failing every file.
    /// `loudnessMemory` keeps the songs' measured loudness between runs.
    public init(
        settings: SynthesizerSettings, soundFonts: SoundFontStack, options: RenderOptions, cores: Int, jobCount: Int,
        songSettings: SongSettingsSource? = nil, loudnessMemory: (any LoudnessMemory)? = nil
    ) throws(SynthesisError) {
        var renderers: [SongRenderer] = []
        for _ in 0..<max(1, min(cores, jobCount)) {
            renderers.append(SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFonts: soundFonts)))
        }
        self.renderers = renderers
        self.options = options
        self.cores = max(1, cores)
        self.songSettings = songSettings
        self.loudnessMemory = loudnessMemory
    }

    /// The cores this process may use (its CPU affinity: `taskset`, a cgroup's cpuset).
    public static var availableCores: Int { WorkerThreads.processorCount }

    /// Renders every job and returns when all are done, or when cancelled (the
    /// renders in progress then stop and leave nothing); `report` is called from the workers.
    /// A render that finds the disk full stops the batch: the renders in progress end (failing
    /// likewise, most of them), and the jobs not started are returned, by index, not tried.
    @discardableResult
    public func run(
        _ jobs: [RenderJob], cancellation: Cancellation = Cancellation(), report: @escaping @Sendable (BatchEvent) -> Void
    ) -> [Int] {
        let loudnessMemory = loudnessMemory
        let renderers = renderers
        // Stems render on one synthesizer, whose outputs are the stems: they are not split.
        let stemRenderers = options.stems ? renderers.map { StemRenderer(keeping: $0.synthesizer) } : []
        let order = Self.largestFirst(jobs.map(\.input))
        return work(order: order, cancellation: cancellation, report: report) { worker, index, cores, options throws(RenderError) in
            let job = jobs[index]
            let (read, songBank, sound) = try self.song(at: job.input, options: options)
            let song = try Song(rendering: read.file, name: job.input.text)
            let songOptions = options.with(sound).tagging(read.file, input: job.input)
            let progress = { (fraction: Double) in report(.progress(index: index, fraction: fraction)) }
            let result: RenderResult
            if !stemRenderers.isEmpty {
                result = try stemRenderers[worker].render(
                    song, toFolder: job.output, options: songOptions, songBank: songBank, sound: sound,
                    cancellation: cancellation, progress: progress)
            } else {
                let loudness = loudnessMemory.flatMap { memory in SongSoundKey.content(ofSongAt: job.input).map { (memory, $0) } }
                result = try renderers[worker].render(
                    song, to: job.output, options: songOptions, cores: cores, songBank: songBank, sound: sound,
                    loudness: loudness, folderLoudness: job.folderLoudness, cancellation: cancellation, progress: progress)
            }
            return .finished(index: index, result, warnings: result.warnings(reading: read))
        }
    }

    /// Measures the loudness of every song that `memory` does not know with its sound, as `run`
    /// would render it, and keeps it there (``SongRenderer/measure(_:at:options:cores:songBank:sound:loudness:cancellation:progress:)``):
    /// `.known` for those it knows. Returns when all are done, or when cancelled (what was measured
    /// is kept); `report` is called from the workers.
    public func measure(
        _ songs: [FilePath], in memory: any LoudnessMemory, cancellation: Cancellation = Cancellation(),
        report: @escaping @Sendable (BatchEvent) -> Void
    ) {
        let renderers = renderers
        work(order: Self.largestFirst(songs), cancellation: cancellation, report: report) { worker, index, cores, options throws(RenderError) in
            let path = songs[index]
            let (read, songBank, sound) = try self.song(at: path, options: options)
            guard let content = SongSoundKey.content(ofSongAt: path) else {
                throw .unreadableSong(.unreadable(path: path, reason: "it could not be read again to be measured"))
            }
            let measurement = try renderers[worker].measure(
                Song(rendering: read.file, name: path.text), at: path, options: options.with(sound), cores: cores, songBank: songBank, sound: sound,
                loudness: (memory, content), cancellation: cancellation
            ) { fraction in
                report(.progress(index: index, fraction: fraction))
            }
            switch measurement {
            case .known(let loudness): return .known(index: index, loudness)
            case .measured(let result): return .finished(index: index, result, warnings: result.warnings(reading: read))
            }
        }
    }

    /// Runs `job` for each index of `order`, in that order, on the workers, each with its number
    /// (for its own renderer), the cores it may use and the batch's options; reports what it
    /// returns, or how it failed. Returns the indexes not started because the disk was full.
    @discardableResult
    private func work(
        order: [Int], cancellation: Cancellation, report: @escaping @Sendable (BatchEvent) -> Void,
        job: @escaping @Sendable (_ worker: Int, _ index: Int, _ cores: Int, RenderOptions) throws(RenderError) -> BatchEvent
    ) -> [Int] {
        /// How many jobs were taken, how many workers are rendering on how many cores, and whether
        /// the disk is full.
        let state = Mutex((taken: 0, rendering: 0, busyCores: 0, diskFull: false, notStarted: [Int]()))
        let options = options
        let cores = cores
        let workers = min(renderers.count, order.count)
        WorkerThreads.run(count: workers) { worker in
            while true {
                let (taken, songCores) = state.withLock { state in
                    let songCores = Self.cores(
                        of: cores, busy: state.busyCores, idleWorkers: workers - 1 - state.rendering, left: order.count - state.taken - 1)
                    defer {
                        state.taken += 1
                        state.rendering += 1
                        state.busyCores += songCores
                    }
                    return (state.taken, songCores)
                }
                defer {
                    state.withLock { state in
                        state.rendering -= 1
                        state.busyCores -= songCores
                    }
                }
                guard taken < order.count, !cancellation.isCancelled else { return }
                let index = order[taken]
                let diskFull = state.withLock { state in
                    if state.diskFull { state.notStarted.append(index) }
                    return state.diskFull
                }
                guard !diskFull else { return }
                report(.started(index: index))
                do throws(RenderError) {
                    report(try job(worker, index, songCores, options))
                } catch {
                    if error.isDiskFull { state.withLock { $0.diskFull = true } }
                    report(.failed(index: index, error))
                }
            }
        }
        return state.withLock { state in
            // Those taken up as the disk filled, and those no worker reached.
            state.diskFull ? (state.notStarted + order[min(state.taken, order.count)...]).sorted() : []
        }
    }

    /// The cores a song may be split across as a worker takes it: its own, and those that would
    /// otherwise stay idle, neither rendering other songs (`busy` are) nor kept for the other
    /// `idleWorkers` about to take one each of the `left` jobs not taken yet. Never more: a song
    /// split across a core another song needs would finish early and leave that song alone at the
    /// end.
    static func cores(of cores: Int, busy: Int, idleWorkers: Int, left: Int) -> Int {
        max(1, cores - busy - min(max(0, left), max(0, idleWorkers)))
    }

    /// The order to start `songs` in: the largest file first (equal sizes in the order given); a
    /// song whose size cannot be read (a member of an archive) counts as small.
    static func largestFirst(_ songs: [FilePath]) -> [Int] {
        let sizes = songs.map { path in
            var info = stat()
            return path.withPlatformString { stat($0, &info) } == 0 ? Int(info.st_size) : 0
        }
        return songs.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }

    /// The song at `path`, read, with its own bank and settings (its folder's).
    private func song(at path: FilePath, options: RenderOptions) throws(RenderError) -> (SMFReader.Output, SongSoundBank?, SongSettings?) {
        let read: SMFReader.Output
        do throws(SMFFileError) {
            read = try SMFReader().read(path: path)
        } catch {
            throw .unreadableSong(error)
        }
        return (read, options.songBanks.bank(forSongAt: path, embedded: read.file.embeddedSoundBank), try songSettings?(path))
    }
}
