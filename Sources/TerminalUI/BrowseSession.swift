import Foundation
import Library
import LibraryIndex
import MediaPlayerService
import Playback
import Resume
import SMF
import SystemPackage

/// The browser's loop: keys move through the library and start playback; the play view takes
/// the screen while a queue plays, and gives it back where the user was. Music started here may
/// go on while the user browses (`b` in the play view), and the resume state follows it.
public struct BrowseSession {
    var browser: LibraryBrowser
    let recorder: ResumeRecorder
    /// Each file's duration and track count from the library index (read in the background when
    /// the index does not know the file yet); nil when there is no index to ask.
    let details: (FilePath) -> FileDetails.Lookup?
    /// What the status line says when no music plays.
    let messages: StatusMessages
    let cancellation: Cancellation
    let reportsUnderruns: Bool
    /// The play view draws the piano keyboard (not with `--no-keyboard`).
    let showsKeyboard: Bool
    /// Connects to the sound server and loads the SoundFont: done at the first play, not before,
    /// so that browsing needs neither.
    let makePlayer: () throws -> Player
    /// The paths of the library's files that have the words typed after `/`, from the library
    /// index; nil when the library has no index, and `/` filters the folder instead.
    let searchLibrary: ((String) -> [FilePath])?
    /// The library's index being built meanwhile, when it had none: its progress shows in the
    /// status line, and search results are looked for again as it goes.
    let indexBuild: IndexBuild?
    /// What the status line last said of the build, and when search results were last refreshed.
    private var lastIndexState: IndexBuild.State?
    private var lastSearchRefresh = ContinuousClock.now
    /// How the play view reads a song's lyrics.
    let textDecoding: (MIDIFile) -> TextDecoding
    /// Offers the player to the desktop's media keys: done with the player, once.
    let makeMediaKeys: () -> MediaKeys?

    private var player: Player?
    private var mediaKeys: MediaKeys?
    private var hasOfferedMediaKeys = false
    /// A media player client asked smfplay to quit.
    private var quitRequested = false
    /// The sound server was gone at the last look (said in the status line once each way).
    private var outputWasLost = false
    /// When the folder shown was last looked at for changes (``LibraryBrowser/refreshIfChanged()``).
    private var folderLookedAt = ContinuousClock.now
    private var view = BrowserView()
    /// The terminal, while the browser runs: the play view shown inside it takes Ctrl-Z there.
    private var terminal: TerminalSession?
    private var isEditingFilter = false
    /// The help page of the keys shows in place of the listing.
    private var showsHelp = false
    /// What was typed after `/`.
    private var typed = ""

    public init(
        browser: LibraryBrowser, recorder: ResumeRecorder, details: @escaping (FilePath) -> FileDetails.Lookup?, messages: StatusMessages,
        cancellation: Cancellation, reportsUnderruns: Bool, showsKeyboard: Bool, makePlayer: @escaping () throws -> Player,
        searchLibrary: ((String) -> [FilePath])? = nil, indexBuild: IndexBuild? = nil,
        textDecoding: @escaping (MIDIFile) -> TextDecoding = TextDecoding.init(detectingIn:),
        makeMediaKeys: @escaping () -> MediaKeys? = { nil }
    ) {
        self.searchLibrary = searchLibrary
        self.indexBuild = indexBuild
        self.makeMediaKeys = makeMediaKeys
        self.textDecoding = textDecoding
        self.browser = browser
        self.recorder = recorder
        self.details = details
        self.messages = messages
        self.cancellation = cancellation
        self.reportsUnderruns = reportsUnderruns
        self.showsKeyboard = showsKeyboard
        self.makePlayer = makePlayer
    }

    /// Runs until the user leaves or a signal comes.
    public mutating func run() {
        let terminal = TerminalSession(fullScreen: true)
        self.terminal = terminal
        defer {
            terminal.restore()
            player?.close()
        }
        var keys = KeyReader()
        browsing: while !cancellation.isCancelled, !quitRequested {
            terminal.suspendIfAsked(pausing: player) { view.invalidate() }
            draw()
            guard let key = keys.next(waitingAtMost: 100) else {
                if keys.isClosed { break browsing }
                followPlayback()
                followIndexBuild()
                followFolder()
                continue
            }
            switch handle(key) {
            case .stay: followPlayback()
            case .leave: break browsing
            case .play(let queue, let seconds): showPlayView(playing: queue, atSeconds: seconds)
            case .showPlayer: showPlayView(playing: nil, atSeconds: 0)
            }
        }
        // Music playing under the browser is recorded where it stops, however the browser ends.
        if let player {
            recorder.record(player.update(), queue: player.queue, placeChanged: true)
            player.stop()
        }
    }

    enum Action {
        case stay, leave
        case play(PlayQueue, atSeconds: Double)
        /// Back to the play view of the music playing.
        case showPlayer
    }

    mutating func handle(_ key: Key) -> Action {
        // Any key closes the help page, and does nothing else.
        if showsHelp {
            showsHelp = false
            return .stay
        }
        if isEditingFilter {
            switch key {
            case .character(let character): type(typed + String(character))
            case .backspace: type(String(typed.dropLast()))
            case .escape:
                closeSearch()
                isEditingFilter = false
            case .enter, .up, .down:
                // The filter closes, and the key acts on the list: Enter opens a folder or plays a file.
                isEditingFilter = false
                return handle(key)
            default: break
            }
            return .stay
        }
        let page = max(TerminalSession.size.rows - 5, 1)
        switch key {
        case .up: browser.moveSelection(by: -1)
        case .down: browser.moveSelection(by: 1)
        case .pageUp: browser.moveSelection(by: -page)
        case .pageDown: browser.moveSelection(by: page)
        case .home: browser.moveSelectionToStart()
        case .end: browser.moveSelectionToEnd()
        case .right: browser.openSelectedFolder()
        case .enter:
            if browser.openSelectedFolder() { break }
            let files = browser.filesFromSelection
            guard !files.isEmpty else { break }
            return .play(PlayQueue(files: files), atSeconds: 0)
        case .left, .backspace: browser.goBack()
        case .character("~"): browser.goToRoot()
        case .character("/"):
            isEditingFilter = true
            typed = browser.search ?? browser.filter
            if searchLibrary == nil { messages.post("The library has no index (smfplay index): / finds names in this folder only.") }
        case .character("P"):
            let files = filesUnderSelection(wholeFolderWhenFile: true)
            guard !files.isEmpty else { break }
            return .play(PlayQueue(files: files), atSeconds: 0)
        case .character("a"):
            let files = filesUnderSelection(wholeFolderWhenFile: false)
            guard !files.isEmpty else { break }
            if let player, !player.update().hasEnded {
                player.append(files)
                messages.post("Added \(files.count) file\(files.count == 1 ? "" : "s") to the queue (\(player.queue.order.count) in all).")
            } else {
                if let count = recorder.appendToSavedQueue(files) {
                    messages.post(
                        "Added \(files.count) file\(files.count == 1 ? "" : "s") to the saved queue (\(count) in all): `smfplay resume` plays it.")
                } else {
                    messages.post("Not added: another smfplay is running and keeps the saved queue; play the files here with Enter or P.")
                }
            }
        case .character("v"):
            if let player, !player.update().hasEnded { return .showPlayer }
        case .escape:
            // Esc backs out of search results (or a filter) to the folder's list; only from the list
            // does it leave, as `q` does.
            guard browser.search == nil, browser.filter.isEmpty else {
                closeSearch()
                break
            }
            return .leave
        case .character("q"): return .leave
        case .character("?"): showsHelp = true
        default: break
        }
        return .stay
    }

    /// Back from search results or a filter to the whole folder.
    private mutating func closeSearch() {
        browser.setFilter("")
        browser.leaveSearch()
    }

    /// The words typed after `/`: a search of the whole library when it has an index, else a filter
    /// of the folder's names.
    private mutating func type(_ text: String) {
        typed = text
        guard let searchLibrary else {
            browser.setFilter(text)
            return
        }
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            browser.leaveSearch()
        } else {
            browser.showSearchResults(searchLibrary(text), for: text)
        }
    }

    /// While the index is built: the search results looked for again each second, as more files
    /// are read; the end said once.
    private mutating func followIndexBuild() {
        guard let indexBuild, lastIndexState.map({ if case .running = $0 { true } else { false } }) ?? true else { return }
        let state = indexBuild.state
        defer { lastIndexState = state }
        switch state {
        case .running:
            if let search = browser.search, ContinuousClock.now - lastSearchRefresh >= .seconds(1), let searchLibrary {
                lastSearchRefresh = .now
                browser.refreshSearchResults(searchLibrary(search))
            }
        case .finished(let count):
            messages.post("The library is indexed (\(count) MIDI file\(count == 1 ? "" : "s")): / searches all of it.")
            if let search = browser.search, let searchLibrary { browser.refreshSearchResults(searchLibrary(search)) }
        case .failed(let reason):
            messages.post("The library could not be indexed: \(reason); / finds what was read")
        }
    }

    /// What the status line says of the index being built, while it is.
    private var indexBuildStatus: String? {
        guard case .running(let progress) = lastIndexState ?? indexBuild?.state else { return nil }
        guard let progress, progress.toRead > 0 else { return "Indexing the library for / (finding its files)…" }
        return "Indexing the library for /: \(progress.read) of \(progress.toRead) files read; / finds those read so far"
    }

    /// The selected folder's MIDI files, recursively; for a file, the file itself, or its whole
    /// folder when `wholeFolderWhenFile`.
    private mutating func filesUnderSelection(wholeFolderWhenFile: Bool) -> [FilePath] {
        guard let selected = browser.selectedEntry else { return [] }
        if selected.kind == .midiFile, !wholeFolderWhenFile { return [selected.path] }
        var collector = MIDIFileCollector()
        collector.add(path: selected.kind == .folder ? selected.path : browser.folderPath)
        if let problem = collector.problems.first { messages.post(problem.description) }
        return collector.files
    }

    /// Plays `queue` (or goes on with what plays) in the play view, until the user leaves it.
    private mutating func showPlayView(playing queue: PlayQueue?, atSeconds seconds: Double) {
        if player == nil {
            messages.post("Connecting to the sound server and loading the SoundFont…")
            draw()
            do {
                player = try makePlayer()
            } catch {
                messages.post("\(error)")
                return
            }
        }
        guard let player else { return }
        if !hasOfferedMediaKeys {
            hasOfferedMediaKeys = true
            mediaKeys = makeMediaKeys()
        }
        let messageBefore = messages.latest
        if let queue, !player.play(queue, atSeconds: seconds) {
            // The saved state stays as it was. The last file's problem stays in sight.
            let problem = messages.latest != messageBefore ? messages.latest : nil
            messages.post((problem.map { $0 + " — " } ?? "") + "nothing to play")
            return
        }
        writeToStandardOutput("\u{1B}[H\u{1B}[2J")
        let recorder = recorder
        var session = PlaySession(
            player: player, interactive: true, cancellation: cancellation, reportsUnderruns: reportsUnderruns,
            insideBrowser: true, showsKeyboard: showsKeyboard, textDecoding: textDecoding,
            onUpdate: { recorder.record($0, queue: player.queue, placeChanged: $1) },
            mediaKeys: mediaKeys)
        session.browserTerminal = terminal
        let ending = session.run()
        view.invalidate()
        switch ending {
        case .outputFailed:
            messages.post("\(player.sinkFailure.map { "\($0)" } ?? "the sound server went away")")
            player.close()
            self.player = nil
        case .queueEnded:
            recorder.recordQueueEnd(of: player.queue, firstPassedOver: player.firstPassedOverPlace)
            messages.post("The queue has ended.")
        case .quit, .signal: messages.post("Stopped.")
        case .backToBrowser: break
        case .quitRequested: quitRequested = true
        }
    }

    /// Once a second: the folder shown, listed again if it changed, went away or came back.
    private mutating func followFolder() {
        let now = ContinuousClock.now
        guard now - folderLookedAt >= .seconds(1) else { return }
        folderLookedAt = now
        browser.refreshIfChanged()
    }

    /// While music plays under the browser: the media keys, the status line, the resume state, the
    /// queue's end.
    private mutating func followPlayback() {
        guard let player else { return }
        let outcome = mediaKeys?.handleRequests(player) ?? .none
        if outcome == .quit {
            quitRequested = true
            return
        }
        let snapshot = player.update()
        mediaKeys?.publish(snapshot, player: player)
        recorder.record(snapshot, queue: player.queue, placeChanged: outcome == .placeChanged)
        if snapshot.hasEnded, !player.isStopped { recorder.recordQueueEnd(of: player.queue, firstPassedOver: player.firstPassedOverPlace) }
        if snapshot.isOutputLost != outputWasLost {
            outputWasLost = snapshot.isOutputLost
            messages.post(outputWasLost ? PlayView.outputLostNotice : "The sound server is back.")
        }
        if let failure = player.sinkFailure {
            messages.post("\(failure)")
            player.close()
            self.player = nil
        }
    }

    private mutating func draw() {
        let size = TerminalSession.size
        var status = [messages.latest, indexBuildStatus].compactMap { $0 }.joined(separator: "  ·  ")
        if let player {
            let snapshot = player.update()
            if !snapshot.hasEnded, let item = snapshot.item {
                let title = player.song(generation: snapshot.start).flatMap {
                    $0.file.titleText(decoding: player.textDecoding(generation: snapshot.start) ?? textDecoding($0.file))
                }
                let name = PlayView.shownName(of: item, title: title)
                status =
                    "\(snapshot.isPaused ? "❚❚" : "▶") \(name)  \(formatDuration(snapshot.heardSeconds)) / \(formatDuration(snapshot.durationSeconds))"
                    + "  (\(snapshot.place + 1) of \(snapshot.queueLength))  v: the player"
            }
        }
        let lines = view.lines(
            for: browser, details: details, lastPlayed: recorder.lastPlayedFile,
            isEditingFilter: isEditingFilter, showsHelp: showsHelp, status: status, columns: size.columns, rows: size.rows)
        view.draw(lines)
    }
}
