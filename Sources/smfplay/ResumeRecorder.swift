import Configuration
import Library
import Playback

/// Keeps the resume state in step with what the player reports: at most once a second while the
/// music plays, and at once after a pause, seek, skip or stop. Each save writes a whole new file
/// (see `ResumeStore`), made from a snapshot, never from state being changed.
///
/// It holds the state's lock while it lives: a second player at the same time plays, but says
/// that another one is running and leaves the state alone.
final class ResumeRecorder {
    let libraryRoot: String
    private let store: ResumeStore
    private let lock: ResumeLock?
    /// What was saved last (or found at the start).
    private(set) var saved: ResumeState? {
        didSet { lastPlayedFile = saved?.lastPlayedFile(libraryRoot: libraryRoot) }
    }
    /// The file played last, as a path under the library of now (or absolute outside it); kept
    /// here because the browser asks at every redraw.
    private(set) var lastPlayedFile: String?
    private var lastSave = ContinuousClock.now - .seconds(60)
    /// Each file's stamp, taken when it was first heard: a file edited while it plays is not the
    /// one whose position is recorded.
    private var stamps: [String: FileStamp] = [:]
    private var hasReportedWriteFailure = false
    private let warn: (String) -> Void

    /// The user's state, in `$XDG_STATE_HOME/smfplay/`.
    convenience init(libraryRoot: String, warn: @escaping (String) -> Void) {
        self.init(store: ResumeStore(folder: XDGDirectories.current().stateFolder), libraryRoot: libraryRoot, warn: warn)
    }

    /// Reads the saved state (a corrupt one is set aside, with a warning) and takes the lock.
    init(store: ResumeStore, libraryRoot: String, warn: @escaping (String) -> Void) {
        self.store = store
        self.libraryRoot = libraryRoot
        self.warn = warn
        // The lock first: a player that holds it may be about to replace a file that this one
        // would otherwise set aside as corrupt.
        do {
            lock = try store.lock()
        } catch {
            lock = nil
            warn("\(error); this one will not record where it stops")
        }
        let loaded = store.load()
        if let warning = loaded.warning { warn(warning.description) }
        saved = loaded.state
        // didSet does not run in an initializer.
        lastPlayedFile = saved?.lastPlayedFile(libraryRoot: libraryRoot)
    }

    /// Records the player's state when it is due.
    func record(_ snapshot: PlayerSnapshot, queue: PlayQueue, placeChanged: Bool) {
        guard lock != nil, let file = snapshot.file, !snapshot.hasEnded else { return }
        let now = ContinuousClock.now
        guard placeChanged || (!snapshot.isPaused && now - lastSave >= .seconds(1)) else { return }
        lastSave = now
        if stamps[file] == nil { stamps[file] = FileStamp(ofFileAt: file) }
        let state = ResumeState(
            libraryRoot: libraryRoot, files: queue.items, order: queue.order, place: snapshot.place,
            position: .init(seconds: snapshot.heardSeconds, ticks: Int(snapshot.heardTick)), file: stamps[file],
            repeatMode: queue.repeatMode.rawValue, shuffled: queue.order != Array(queue.order.indices))
        save(state)
    }

    /// Records that the queue played to its end, so that the next resume starts it again
    /// instead of playing the last second of its last file.
    func recordQueueEnd() {
        guard lock != nil, var state = saved, !state.hasEnded else { return }
        state.place = state.order.count
        state.position = .init(seconds: 0, ticks: 0)
        state.file = nil
        save(state)
    }

    /// Adds files to the end of the saved queue (nothing playing); returns its new length, or nil
    /// when another smfplay holds the state and this one may not change it.
    func appendToSavedQueue(_ files: [String]) -> Int? {
        guard lock != nil else { return nil }
        var queue = savedQueue()?.queue ?? PlayQueue(items: [])
        queue.append(files)
        let seconds = saved?.position.seconds ?? 0
        let state = ResumeState(
            libraryRoot: libraryRoot, files: queue.items, order: queue.order, place: queue.place,
            position: .init(seconds: seconds, ticks: saved?.position.ticks ?? 0), file: saved?.file,
            repeatMode: queue.repeatMode.rawValue, shuffled: saved?.shuffled ?? false)
        save(state)
        return queue.order.count
    }

    /// The saved queue at the saved place, and where to start in its file: the saved position,
    /// or the start (with a notice saying so) if the file changed since.
    func savedQueue() -> (queue: PlayQueue, seconds: Double, notice: String?)? {
        guard let saved, !saved.queue.isEmpty else { return nil }
        let files = saved.files(libraryRoot: libraryRoot)
        let queue = PlayQueue(items: files, order: saved.order, place: saved.hasEnded ? 0 : saved.place,
                              repeatMode: PlayQueue.RepeatMode(rawValue: saved.repeatMode) ?? .off)
        if saved.hasEnded { return (queue, 0, "the last queue was played to its end: playing it again from the start") }
        guard let current = queue.current else { return (queue, 0, nil) }
        if let stamp = saved.file, stamp.hasChanged(fileAt: current), FileStamp(ofFileAt: current) != nil {
            return (queue, 0, "\(current) has changed since it was last played: starting it from the beginning")
        }
        return (queue, saved.position.seconds, nil)
    }

    private func save(_ state: ResumeState) {
        do {
            try store.save(state)
            saved = state
        } catch {
            // Once: a full disk would otherwise say so every second.
            guard !hasReportedWriteFailure else { return }
            hasReportedWriteFailure = true
            warn("\(error)")
        }
    }
}
