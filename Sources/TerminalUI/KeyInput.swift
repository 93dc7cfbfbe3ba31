#if canImport(Glibc)
    import Glibc
#endif

/// Where the player's keys come from: standard input, or the terminal when standard input
/// brought the song (`curl … | smfplay play -`).
public struct KeyInput {
    public let fileDescriptor: Int32
    /// A person types there (the view takes the terminal), rather than a script writing to a pipe.
    let isTerminal: Bool

    public static var standardInput: KeyInput { KeyInput(fileDescriptor: STDIN_FILENO, isTerminal: isatty(STDIN_FILENO) == 1) }

    /// The controlling terminal, `/dev/tty`, when there is one. Without one no key comes: standard
    /// input, read to its end for the song, gives none. Open while smfplay runs.
    public static func controllingTerminal() -> KeyInput {
        let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return KeyInput(fileDescriptor: STDIN_FILENO, isTerminal: false) }
        return KeyInput(fileDescriptor: fd, isTerminal: true)
    }

    /// Whether the play view can take the terminal: keys from one, and standard output on one.
    public var isInteractive: Bool { isTerminal && isatty(STDOUT_FILENO) == 1 }
}
