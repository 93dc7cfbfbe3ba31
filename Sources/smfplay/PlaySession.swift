import Playback

/// The player's loop on the interface thread: keys in, status out, until the
/// queue runs out, the user quits, a signal comes or the output fails.
struct PlaySession {
    let player: Player
    let interactive: Bool
    let cancellation: Cancellation

    /// Returns the exit status.
    func run() -> Int32 {
        let terminal = interactive ? TerminalSession() : nil
        defer { terminal?.restore() }
        var keys = KeyReader()
        var view = PlayView()
        var lastFile: String?
        var lastPlace = -1
        while true {
            if cancellation.isCancelled {
                player.stop()
                return 0
            }
            if let failure = player.sinkFailure {
                terminal?.restore()
                printError("\(failure)")
                return Play.noServerStatus
            }
            // Keys come from a terminal, or from a pipe (how scripts and tests drive the player).
            if let key = keys.next(waitingAtMost: 50), handle(key) == .quit {
                player.stop()
                return 0
            }
            let snapshot = player.update()
            if snapshot.file != lastFile || snapshot.place != lastPlace, let file = snapshot.file {
                lastFile = file
                lastPlace = snapshot.place
                if !interactive {
                    // Written at once, not buffered: a log or a pipe sees each file as it starts.
                    writeToStandardOutput("playing \(snapshot.place + 1)/\(snapshot.queueLength): \(file) (\(formatDuration(snapshot.durationSeconds)))\n")
                }
            }
            if interactive { view.draw(snapshot, columns: TerminalSession.columns) }
            if snapshot.hasEnded {
                player.stop()
                return 0
            }
        }
    }

    private enum Outcome {
        case continuePlaying, quit
    }

    private func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(" "): player.togglePause()
        case .left: player.seek(bySeconds: -5)
        case .right: player.seek(bySeconds: 5)
        case .up: player.seek(bySeconds: 30)
        case .down: player.seek(bySeconds: -30)
        case .character("n"): player.next()
        case .character("p"): player.previous()
        case .character("r"): player.restart()
        case .character("q"), .escape: return .quit
        default: break
        }
        return .continuePlaying
    }
}
