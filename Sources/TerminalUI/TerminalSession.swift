import Playback

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal in the mode a full-screen view needs: keys arrive one at a
/// time without echo, the cursor is hidden; `restore()` puts everything back. A full-screen
/// session takes Ctrl-Z itself (`suspendIfAsked`): the terminal is put back before the process
/// stops, and taken again when it goes on.
public final class TerminalSession {
    private var original = termios()
    private var isActive = false
    /// The terminal's descriptor the keys come from (standard input, or `/dev/tty`).
    private let input: Int32
    /// Drawn on the terminal's alternate screen, which gives the user's scrollback back on exit.
    private let isFullScreen: Bool
    /// Ctrl-Z while the full-screen view shows.
    private var suspendTrap: SuspendTrap?

    /// Whether standard input and output are both a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    init(fullScreen: Bool = false, input: Int32 = STDIN_FILENO) {
        isFullScreen = fullScreen
        self.input = input
        guard tcgetattr(input, &original) == 0, enter() else { return }
        if fullScreen { suspendTrap = SuspendTrap() }
    }

    deinit {
        restore()
    }

    func restore() {
        suspendTrap = nil
        leave()
    }

    /// Raw mode, the cursor hidden, the alternate screen (cleared) when full-screen; false if the
    /// terminal would not take raw mode.
    private func enter() -> Bool {
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // Reads return at once, with whatever has arrived.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
        isActive = true
        writeToStandardOutput((isFullScreen ? "\u{1B}[?1049h\u{1B}[2J" : "") + "\u{1B}[?25l")
        return true
    }

    /// The terminal as it was before `enter()`.
    private func leave() {
        guard isActive else { return }
        isActive = false
        tcsetattr(input, TCSANOW, &original)
        writeToStandardOutput("\u{1B}[?25h" + (isFullScreen ? "\u{1B}[?1049l" : ""))
    }

    /// After Ctrl-Z: `player`'s music, if it plays, is paused (faded, as the pause key does), the
    /// terminal put back, and the process stopped as a shell's job; once continued (`fg`), raw
    /// mode and the alternate screen come back, `redraw` has the view drawn anew, and the music goes
    /// on if it played before. Nothing when Ctrl-Z has not come since the last look.
    func suspendIfAsked(pausing player: Player?, redraw: () -> Void) {
        guard let suspendTrap, suspendTrap.takeRequest() else { return }
        let playing =
            player.map { player in
                let snapshot = player.update(keysAndChannels: false)
                return !snapshot.isPaused && !snapshot.hasEnded
            } ?? false
        if playing { player?.togglePause() }
        leave()
        suspendTrap.stopUntilContinued()
        _ = enter()
        redraw()
        if playing { player?.togglePause() }
    }

    /// The terminal's width in columns (80 when it cannot be told).
    public static var columns: Int { size.columns }

    /// The terminal's size, read anew each time (it follows a resize); 80 × 24 when it cannot be told.
    static var size: (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}

public func writeToStandardOutput(_ text: String) {
    writeToStandardOutput(Array(text.utf8))
}

/// All of `bytes`, however many writes a pipe takes; a closed pipe ends it.
public func writeToStandardOutput(_ bytes: [UInt8]) {
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + written, bytes.count - written) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        written += count
    }
}
