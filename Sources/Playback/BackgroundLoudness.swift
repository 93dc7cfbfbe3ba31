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
/// the song it is for to its gain. With `--loudness folder`, a folder's loudness too: every song
/// in it, measured unless known, one song between the songs asked for (which come first).
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

    /// What the player asks for.
    enum Work: Sendable {
        case song(Request)
        /// The loudness of a folder's songs together.
        case folder(FilePath)
    }

    /// What was measured: each song's loudness at a synthesizer gain of 1, and each folder's (nil
    /// for silence, or a song that could not be measured).
    struct Measured {
        var songs: [(key: SongSoundKey, loudness: Loudness?)] = []
        var folders: [(folder: FilePath, loudness: Loudness?)] = []
    }

    /// A folder being measured: the songs left, and the loudness of those done.
    private struct FolderInProgress {
        var folder: FilePath
        var songsLeft: [FilePath]
        var measured: [Loudness] = []
    }

    private struct State {
        var waiting: [Request] = []
        var waitingFolders: [FilePath] = []
        /// Keys asked for, measured or not: each is measured once a run.
        var asked: Set<SongSoundKey> = []
        var measured = Measured()
        var isStopping = false
    }

    private let memory: any LoudnessMemory
    private let sounds: SongSoundSource
    private let folderSongs: (@Sendable (FilePath) -> [FilePath])?
    private let state = Mutex(State())
    private let wake = CountingSemaphore()
    private let thread = Mutex<WorkerThreads.StartedThread?>(nil)

    /// Nil when its thread cannot be made (songs then play at the loudness they have). `sounds`
    /// says how a folder's songs sound, `folderSongs` which they are (nil: no folder is asked for).
    init?(memory: any LoudnessMemory, sounds: SongSoundSource, folderSongs: (@Sendable (FilePath) -> [FilePath])?) {
        self.memory = memory
        self.sounds = sounds
        self.folderSongs = folderSongs
        guard let started = WorkerThreads.start({ [self] in work() }) else { return nil }
        thread.withLock { $0 = started }
    }

    /// Measures a song after those asked for earlier (the song playing is asked for first, then
    /// the one prepared to follow it), unless it was asked for already; a folder after the songs.
    func request(_ work: Work) {
        let isNew = state.withLock { state in
            switch work {
            case .song(let request):
                guard state.asked.insert(request.key).inserted else { return false }
                state.waiting.append(request)
            case .folder(let folder):
                state.waitingFolders.append(folder)
            }
            return true
        }
        if isNew { wake.post() }
    }

    /// What was measured since the last call.
    func takeMeasured() -> Measured {
        state.withLock { state in
            defer { state.measured = Measured() }
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
        var folder: FolderInProgress?
        // Each request posts once, and each wait takes one post: what is taken while a folder is
        // measured (no wait) leaves a post behind, a wake-up that finds nothing. Never fewer posts
        // than waiting work, so nothing waits unseen.
        while true {
            if folder == nil { wake.wait() }
            let (next, nextFolder, isStopping): (Request?, FilePath?, Bool) = state.withLock { state in
                if state.isStopping { return (nil, nil, true) }
                if !state.waiting.isEmpty { return (state.waiting.removeFirst(), nil, false) }
                if folder == nil, !state.waitingFolders.isEmpty { return (nil, state.waitingFolders.removeFirst(), false) }
                return (nil, nil, false)
            }
            if isStopping { return }
            if let next {
                let loudness = measure(next)
                state.withLock { $0.measured.songs.append((next.key, loudness)) }
            } else if let nextFolder {
                folder = FolderInProgress(folder: nextFolder, songsLeft: folderSongs?(nextFolder) ?? [])
            }
            guard var current = folder else { continue }
            if current.songsLeft.isEmpty {
                let together = Loudness(together: current.measured)
                state.withLock { $0.measured.folders.append((current.folder, together)) }
                folder = nil
                continue
            }
            if let loudness = measureFolderSong(current.songsLeft.removeFirst()) { current.measured.append(loudness) }
            folder = current
        }
    }

    /// A song of a folder being measured: as known, or measured now (and handed to the player too,
    /// which may be playing it). Nil for silence, and for a song that cannot be read (which
    /// cannot be played either), or one too long to measure (a damaged file of days of silence).
    private func measureFolderSong(_ path: FilePath) -> Loudness? {
        guard let content = SongSoundKey.content(ofSongAt: path), let read = try? SMFReader().read(path: path),
            let song = try? Song(rendering: read.file, name: path.text)
        else { return nil }
        guard case .success(let sound) = sounds.sound(of: song, at: path) else { return nil }
        let key = SongSoundKey(
            content: content, settings: sound.settings, soundFonts: sound.soundFonts, performance: Performance(), loops: sound.loops)
        if let known = memory.loudness(of: key) { return known }
        let isNew = state.withLock { $0.asked.insert(key).inserted }
        let loudness = measure(
            Request(key: key, song: song, path: path, settings: sound.settings, soundFonts: sound.soundFonts, loops: sound.loops))
        if isNew { state.withLock { $0.measured.songs.append((key, loudness)) } }
        return loudness
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
            // Known: measured meanwhile (another smfplay, `index --loudness`), and kept.
            return result.unityLoudness
        } catch {
            return nil
        }
    }
}
