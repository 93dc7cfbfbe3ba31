import MediaPlayerService
import Playback
import SMF
import Synthesis

#if canImport(Glibc)
    import Glibc
#endif

/// The player's loop on the interface thread: keys in, status out, until the
/// queue runs out, the user quits, a signal comes or the output fails.
public struct PlaySession {
    /// Why the loop ended.
    public enum Ending: Equatable {
        case queueEnded, quit, signal, outputFailed
        /// Inside the browser: back to it, the music still playing (`b`).
        case backToBrowser
        /// A media player client asked smfplay to quit (MPRIS): the browser too.
        case quitRequested
    }

    let player: Player
    let interactive: Bool
    let cancellation: Cancellation
    /// Underruns are reported as they happen (`--verbose`).
    let reportsUnderruns: Bool
    /// Inside the browser, which owns the terminal: `b` goes back to it with the music playing.
    let insideBrowser: Bool
    /// The play view draws the piano keyboard (not with `--no-keyboard`).
    let showsKeyboard: Bool
    /// How a song's lyrics are read (its text encoding).
    let textDecoding: (MIDIFile) -> TextDecoding
    /// Every snapshot, and whether it follows a change of place (pause, seek, skip, the end):
    /// what the resume state records.
    let onUpdate: (PlayerSnapshot, _ placeChanged: Bool) -> Void
    /// The desktop's media keys (MPRIS), unless they are off.
    let mediaKeys: MediaKeys?
    /// Where keys come from: standard input, unless it brought the song.
    public var keyInput = STDIN_FILENO
    /// Inside the browser, its terminal session, which takes Ctrl-Z.
    var browserTerminal: TerminalSession?

    public init(
        player: Player, interactive: Bool, cancellation: Cancellation, reportsUnderruns: Bool, insideBrowser: Bool = false,
        showsKeyboard: Bool = true, textDecoding: @escaping (MIDIFile) -> TextDecoding = TextDecoding.init(detectingIn:),
        onUpdate: @escaping (PlayerSnapshot, _ placeChanged: Bool) -> Void = { _, _ in }, mediaKeys: MediaKeys? = nil
    ) {
        self.player = player
        self.interactive = interactive
        self.cancellation = cancellation
        self.reportsUnderruns = reportsUnderruns
        self.insideBrowser = insideBrowser
        self.showsKeyboard = showsKeyboard
        self.textDecoding = textDecoding
        self.onUpdate = onUpdate
        self.mediaKeys = mediaKeys
    }

    public func run() -> Ending {
        let terminal = interactive && !insideBrowser ? TerminalSession(fullScreen: true, input: keyInput) : nil
        defer { terminal?.restore() }
        var keys = KeyReader(fileDescriptor: keyInput)
        var view = PlayView(showsUnderruns: reportsUnderruns, insideBrowser: insideBrowser, showsKeyboard: showsKeyboard)
        var underrunsReported = 0
        var coresReported = 1
        var outputLostReported = false
        var lastStart = -1
        // 40 ms, and the work of a frame: the keyboard follows the notes 20 times a second or more,
        // and a desktop's call is answered within 100 ms. With neither a screen nor media keys,
        // 100 ms: keys are read as they come anyway, a song's start is announced within a tenth of
        // a second, and the player's snapshots, 25 a second, took 4–5 ms of CPU a second (about 6 %
        // of smfplay's while it plays keep_on_rolling.mid with FluidR3_GM).
        let interval: Int32 = interactive || mediaKeys != nil ? 40 : 100
        while true {
            (terminal ?? browserTerminal)?.suspendIfAsked(pausing: player) { view.invalidate() }
            if cancellation.isCancelled { return stop(.signal) }
            if let failure = player.sinkFailure {
                terminal?.restore()
                printError("\(failure)")
                return .outputFailed
            }
            // Keys come from a terminal, or from a pipe (how scripts and tests drive the player).
            var placeChanged = false
            if let key = keys.next(waitingAtMost: interval) {
                switch handle(key, view: &view) {
                case .ignored: break
                case .handled: placeChanged = true
                case .quit: return stop(.quit)
                case .back: return .backToBrowser
                }
            }
            switch mediaKeys?.handleRequests(player) ?? .none {
            case .none: break
            case .placeChanged: placeChanged = true
            case .quit: return stop(.quitRequested)
            }
            let snapshot = player.update(keysAndChannels: interactive)
            mediaKeys?.publish(snapshot, player: player)
            if snapshot.start != lastStart, let item = snapshot.item {
                lastStart = snapshot.start
                placeChanged = true
                if interactive {
                    let song = player.song(generation: snapshot.start)
                    // The song's own reading (its folder's text_encoding) before the session's.
                    let read = song.map { ($0, player.textDecoding(generation: snapshot.start) ?? textDecoding($0.file)) }
                    let lyrics = read.map { Lyrics(song: $0.0, decoding: $0.1) }
                    view.lyrics = lyrics.flatMap { $0.isEmpty ? nil : LyricsView(lyrics: $0) }
                    view.moduleDisplay = read.flatMap { ModuleDisplayView(song: $0.0, decoding: $0.1) }
                    view.title = read.flatMap { $0.0.file.titleText(decoding: $0.1) }
                }
                if !interactive {
                    // Written at once, not buffered: a log or a pipe sees each file as it starts.
                    writeToStandardOutput(
                        "playing \(snapshot.place + 1)/\(snapshot.queueLength): \(item.displayName) (\(formatDuration(snapshot.durationSeconds)))\n")
                }
            }
            onUpdate(snapshot, placeChanged)
            if !interactive, snapshot.isOutputLost != outputLostReported {
                outputLostReported = snapshot.isOutputLost
                printError(
                    outputLostReported ? PlayView.outputLostNotice : "sound server back: playing on from \(formatDuration(snapshot.heardSeconds))")
            }
            if reportsUnderruns, !interactive, snapshot.underruns > underrunsReported {
                underrunsReported = snapshot.underruns
                printError(
                    "output underrun at \(formatDuration(snapshot.heardSeconds)) (\(underrunsReported) so far; render load \(Int((snapshot.renderLoad * 100).rounded())) % on \(snapshot.cores) \(snapshot.cores == 1 ? "core" : "cores"))"
                )
            }
            if reportsUnderruns, !interactive, snapshot.item != nil, snapshot.cores != coresReported {
                coresReported = snapshot.cores
                printError(
                    "playing on \(snapshot.cores) \(snapshot.cores == 1 ? "core" : "cores") from \(formatDuration(snapshot.heardSeconds)) (render load \(Int((snapshot.renderLoad * 100).rounded())) %)"
                )
            }
            if interactive { view.draw(snapshot, queue: player.queue, terminalSize: TerminalSession.size) }
            if snapshot.hasEnded { return stop(.queueEnded) }
        }
    }

    /// Records where the music was, then lets it fade.
    private func stop(_ ending: Ending) -> Ending {
        onUpdate(player.update(), true)
        player.stop()
        return ending
    }

    private enum Outcome {
        case ignored, handled, quit, back
    }

    private func handle(_ key: Key, view: inout PlayView) -> Outcome {
        view.notice = nil
        // Any key closes the help page, and does nothing else.
        if view.showsHelp {
            view.showsHelp = false
            return .ignored
        }
        if let outcome = handleQueueKey(key, view: &view) { return outcome }
        if view.showsChannels, let outcome = handleChannelKey(key, panel: &view.channels) { return outcome }
        switch key {
        case .character(" "): player.togglePause()
        case .left: player.seek(bySeconds: -5)
        case .right: player.seek(bySeconds: 5)
        case .up: player.seek(bySeconds: 30)
        case .down: player.seek(bySeconds: -30)
        case .character("n"):
            if !player.next() { view.notice = "n: this is the last song in the queue" }
        case .character("p"): player.previous()
        case .character("r"): player.restart()
        case .character("q"), .escape: return .quit
        case .character("b") where insideBrowser: return .back
        case .character("+"), .character("="): player.performance.transpose(by: 1)
        case .character("-"), .character("_"): player.performance.transpose(by: -1)
        case .character("]"): player.performance.changeTempo(bySteps: 1)
        case .character("["): player.performance.changeTempo(bySteps: -1)
        case .character("c"):
            view.showsChannels.toggle()
            return .ignored
        case .character("?"):
            view.showsHelp = true
            return .ignored
        case .character("l"):
            view.queueList = QueueList(selected: player.queue.place)
            return .ignored
        default: return .ignored
        }
        return .handled
    }

    /// The queue list's keys, when it is open: ↑/↓/PgUp/PgDn/Home/End move the selection, Enter
    /// plays the file selected, `l` or Esc closes the list; nil for the play view's keys.
    private func handleQueueKey(_ key: Key, view: inout PlayView) -> Outcome? {
        guard var list = view.queueList else { return nil }
        let count = player.queue.order.count
        // About the list's height: the screen less the view's four lines and the list's heading.
        let page = max(TerminalSession.size.rows - 5, 1)
        switch key {
        case .up: list.move(by: -1, count: count)
        case .down: list.move(by: 1, count: count)
        case .pageUp: list.move(by: -page, count: count)
        case .pageDown: list.move(by: page, count: count)
        case .home: list.move(by: -count, count: count)
        case .end: list.move(by: count, count: count)
        case .enter:
            player.jump(toPlace: list.selected)
            return .handled
        case .character("l"), .escape:
            view.queueList = nil
            return .ignored
        default: return nil
        }
        view.queueList = list
        return .ignored
    }

    /// The channel panel's keys: digits select channels 1–10 (0 is 10), tab the next one; `m` mutes
    /// or unmutes it, `s` solos it (or takes it out of the solo), `u` lets every channel play.
    private func handleChannelKey(_ key: Key, panel: inout ChannelPanel) -> Outcome? {
        guard case .character(let character) = key else { return nil }
        var performance = player.performance
        switch character {
        case "1"..."9": panel.select(Int(String(character))! - 1)
        case "0": panel.select(9)
        case "\t": panel.select(panel.selected + 1)
        case "m":
            performance.muted.toggle(panel.selected)
            performance.soloed.remove(panel.selected)
        case "s":
            performance.soloed.toggle(panel.selected)
            performance.muted.remove(panel.selected)
        case "u":
            performance.muted = ChannelSet()
            performance.soloed = ChannelSet()
        default: return nil
        }
        if performance != player.performance { player.performance = performance }
        return .ignored
    }
}
