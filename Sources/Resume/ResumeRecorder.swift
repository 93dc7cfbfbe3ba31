import Files
import Library
import Playback
import SystemPackage

/// Keeps the resume state in step with what the player reports: the position at most once a second
/// while the music plays, and at once after a pause, seek, skip or stop; the queue only when it
/// has changed (see `ResumeStore`: the position costs the same for any queue). Each save is made
/// from a snapshot, never from state being changed. A queue holding the song from standard input
/// is not recorded: that song cannot be read again.
///
/// It holds the state's lock while it lives: a second player at the same time plays, but says
/// that another one is running and leaves the state alone.
public final class ResumeRecorder {
    let libraryRoot: FilePath
    private let store: ResumeStore
    private let lock: ResumeLock?
    /// What was saved last (or found at the start).
    private(set) var saved: ResumeState? {
        didSet { lastPlayedFile = saved?.lastPlayedFile(libraryRoot: libraryRoot) }
    }
    /// The file played last, as a path under the library of now (or absolute outside it); kept
    /// here because the browser asks at every redraw.
    public private(set) var lastPlayedFile: FilePath?
    /// The queue's items and order as saved last: when the player's are the same arrays (the usual
    /// case, found in constant time), only the position is written.
    private var savedItems: [QueueItem]?
    private var savedOrder: [Int]?
    private var lastSave = ContinuousClock.now - .seconds(60)
    /// Each file's stamp, taken when it was first heard: a file edited while it plays is not the
    /// one whose position is recorded.
    private var stamps: [FilePath: FileStamp] = [:]
    private var hasReportedWriteFailure = false
    private let warn: (String) -> Void

    /// The state kept in `stateFolder` (`$XDG_STATE_HOME/smfplay/`).
    public convenience init(stateFolder: FilePath, libraryRoot: FilePath, warn: @escaping (String) -> Void) {
        self.init(store: ResumeStore(folder: stateFolder), libraryRoot: libraryRoot, warn: warn)
    }

    /// Reads the saved state (a damaged one is set aside, with a warning) and takes the lock.
    public init(store: ResumeStore, libraryRoot: FilePath, warn: @escaping (String) -> Void) {
        self.store = store
        self.libraryRoot = libraryRoot
        self.warn = warn
        // The lock first: a player that holds it may be writing the state this one reads.
        do {
            lock = try store.lock()
        } catch {
            lock = nil
            warn("\(error); this one will not record where it stops")
        }
        let loaded = store.load()
        // Without the lock (a state folder that cannot be written), the state's failing to open
        // is the same cause, said already: one line, not a second about resuming.
        if let warning = loaded.warning, lock != nil { warn(warning.description) }
        saved = loaded.state
        // didSet does not run in an initializer.
        lastPlayedFile = saved?.lastPlayedFile(libraryRoot: libraryRoot)
    }

    /// Records the player's state when it is due.
    public func record(_ snapshot: PlayerSnapshot, queue: PlayQueue, placeChanged: Bool) {
        guard lock != nil, case .file(let file)? = snapshot.item, !snapshot.hasEnded else { return }
        let now = ContinuousClock.now
        guard placeChanged || (!snapshot.isPaused && now - lastSave >= .seconds(1)) else { return }
        lastSave = now
        let shuffled = queue.order != Array(queue.order.indices)
        if var state = saved, queue.items == savedItems, queue.order == savedOrder,
            state.repeatMode == queue.repeatMode.rawValue, state.shuffled == shuffled
        {
            state.position = position(of: snapshot, file: file)
            savePosition(state)
        } else if let files = queue.files {
            // A queue holding the song from standard input has no `files`, and is not recorded.
            save(
                ResumeState(
                    libraryRoot: libraryRoot, files: files, order: queue.order,
                    repeatMode: queue.repeatMode.rawValue, shuffled: shuffled, position: position(of: snapshot, file: file)),
                items: queue.items, order: queue.order)
        }
    }

    /// Where the snapshot is, in the file heard: its stamp taken when it was first heard.
    private func position(of snapshot: PlayerSnapshot, file: FilePath) -> ResumeState.Position {
        if stamps[file] == nil { stamps[file] = FileStamp(ofFileAt: file) }
        return ResumeState.Position(place: snapshot.place, seconds: snapshot.heardSeconds, ticks: Int(snapshot.heardTick), file: stamps[file])
    }

    /// Records that `queue` played to its end, so that the next resume starts it again instead of
    /// playing the last second of its last file; or, when it ended passing over files it could
    /// not reach (`firstPassedOver`, a place in its order: a disk unmounted), that the next resume
    /// starts at the first of them. Another queue than the one saved (one holding the song from
    /// standard input, which is never saved) leaves the saved one as it was.
    public func recordQueueEnd(of queue: PlayQueue, firstPassedOver: Int? = nil) {
        guard lock != nil, queue.items == savedItems, var state = saved, !state.hasEnded else { return }
        state.position = .init(place: firstPassedOver ?? state.order.count, seconds: 0, ticks: 0, file: nil)
        savePosition(state)
    }

    /// Adds files to the end of the saved queue (nothing playing); returns its new length, or nil
    /// when another smfplay holds the state and this one may not change it.
    public func appendToSavedQueue(_ files: [FilePath]) -> Int? {
        guard lock != nil else { return nil }
        var queue = savedQueue()?.queue ?? PlayQueue(files: [])
        queue.append(files.map(QueueItem.file))
        let position = saved?.position ?? .init(place: 0, seconds: 0, ticks: 0, file: nil)
        let state = ResumeState(
            // A saved queue is of files, and so is this one.
            libraryRoot: libraryRoot, files: queue.items.compactMap(\.file), order: queue.order, repeatMode: queue.repeatMode.rawValue,
            shuffled: saved?.shuffled ?? false,
            position: .init(place: queue.place, seconds: position.seconds, ticks: position.ticks, file: position.file))
        save(state, items: queue.items, order: queue.order)
        return queue.order.count
    }

    /// The saved queue at the saved place, and where to start in its file: the saved position,
    /// or the start (with a notice saying so) if the file changed since.
    public func savedQueue() -> (queue: PlayQueue, seconds: Double, notice: String?)? {
        guard let saved, !saved.queue.isEmpty else { return nil }
        let files = saved.files(libraryRoot: libraryRoot)
        let queue = PlayQueue(
            files: files, order: saved.order, place: saved.hasEnded ? 0 : saved.position.place,
            repeatMode: PlayQueue.RepeatMode(rawValue: saved.repeatMode) ?? .off)
        // The player's queue starts as these arrays: its first position saves only the position.
        savedItems = queue.items
        savedOrder = queue.order
        if saved.hasEnded { return (queue, 0, "the last queue was played to its end: playing it again from the start") }
        guard let current = queue.current?.file else { return (queue, 0, nil) }
        if let stamp = saved.position.file, stamp.hasChanged(fileAt: current), FileStamp(ofFileAt: current) != nil {
            return (queue, 0, "\(current.text) has changed since it was last played: starting it from the beginning")
        }
        return (queue, saved.position.seconds, nil)
    }

    private func save(_ state: ResumeState, items: [QueueItem], order: [Int]) {
        report { () throws(FileWriteError) in
            try store.save(state)
            saved = state
            savedItems = items
            savedOrder = order
        }
    }

    private func savePosition(_ state: ResumeState) {
        report { () throws(FileWriteError) in
            try store.savePosition(state.position)
            saved = state
        }
    }

    private func report(_ write: () throws(FileWriteError) -> Void) {
        do {
            try write()
        } catch {
            // Once: a full disk would otherwise say so every second.
            guard !hasReportedWriteFailure else { return }
            hasReportedWriteFailure = true
            warn("\(error)")
        }
    }
}
