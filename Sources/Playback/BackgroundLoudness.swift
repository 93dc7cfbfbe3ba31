import Loudness
import SMF
import Synchronization
import Synthesis
import SystemPackage
import WorkerThreads

/// Measures, while music plays, the loudness of the songs the player will play and does not know
/// yet: one at a time, each on a synthesizer of its own as it will sound, on a thread that runs
/// only on time no other thread wants (`SCHED_IDLE`), so never at the audio thread's cost. Each
/// measurement is kept in the memory, and handed to the player (``takeMeasured()``), which ramps
/// the song it is for to its gain.
final class BackgroundLoudness: Sendable {
    /// A song to measure, and the sound it plays with.
    struct Request: Sendable {
        var key: SongSoundKey
        var song: Song
        var path: FilePath
        var settings: SynthesizerSettings
        var soundFonts: SoundFontStack
        var loops: LoopSettings
    }

    private struct State {
        var waiting: [Request] = []
        /// Keys asked for, measured or not: each is measured once a run.
        var asked: Set<SongSoundKey> = []
        var measured: [(key: SongSoundKey, loudness: Loudness?)] = []
        var isStopping = false
    }

    private let memory: any LoudnessMemory
    private let state = Mutex(State())
    private let wake = CountingSemaphore()
    private let thread = Mutex<WorkerThreads.StartedThread?>(nil)

    /// Nil when its thread cannot be made (songs then play at the loudness they have).
    init?(memory: any LoudnessMemory) {
        self.memory = memory
        guard let started = WorkerThreads.start({ [self] in work() }) else { return nil }
        thread.withLock { $0 = started }
    }

    /// Measures the song after those asked for earlier (the song playing is asked for first, then
    /// the one prepared to follow it), unless it was asked for already.
    func request(_ request: Request) {
        let isNew = state.withLock { state in
            guard state.asked.insert(request.key).inserted else { return false }
            state.waiting.append(request)
            return true
        }
        if isNew { wake.post() }
    }

    /// What was measured since the last call: each song's loudness at a synthesizer gain of 1,
    /// nil for silence (or a song that could not be measured).
    func takeMeasured() -> [(key: SongSoundKey, loudness: Loudness?)] {
        state.withLock { state in
            defer { state.measured = [] }
            return state.measured
        }
    }

    /// Stops after the song being measured (its measurement is dropped) and waits for the thread.
    func stop() {
        state.withLock { $0.isStopping = true }
        wake.post()
        thread.withLock { $0.take() }?.join()
    }

    private func work() {
        IdlePriority.enterForThisThread()
        while true {
            wake.wait()
            let next: Request? = state.withLock { state in state.isStopping || state.waiting.isEmpty ? nil : state.waiting.removeFirst() }
            guard let next else {
                if state.withLock({ $0.isStopping }) { return }
                continue
            }
            let loudness = measure(next)
            state.withLock { $0.measured.append((next.key, loudness)) }
        }
    }

    /// The song rendered without writing, on a synthesizer of its own, and measured.
    private func measure(_ request: Request) -> Loudness? {
        let cancellation = Cancellation()
        let isStopping = { self.state.withLock { $0.isStopping } }
        do {
            let renderer = SongRenderer(synthesizer: try Synthesizer(settings: request.settings, soundFonts: request.soundFonts))
            let options = RenderOptions(format: .wav, encoding: .float32, loops: request.loops)
            let result = try renderer.measure(
                request.song, at: request.path, options: options, loudness: (memory, request.key.content), cancellation: cancellation
            ) { _ in
                if isStopping() { cancellation.cancel() }
            }
            // Nil: measured meanwhile (another smfplay, `index --loudness`), and kept.
            return result.map(\.loudness) ?? memory.loudness(of: request.key)
        } catch {
            return nil
        }
    }
}
