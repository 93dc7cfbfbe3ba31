/// Every status smfplay exits with, one rule for every command. The README's "Exit status"
/// table and each command's help say the same (`helpLine`); generate-manual's EXIT STATUS
/// section is ArgumentParser's fixed text, so the man pages carry it in their discussion.
enum ExitStatus: Int32 {
    /// Everything asked was done.
    case success = 0
    /// Something given could not be read, played or written (the rest was done), or the
    /// configuration or a SoundFont it names could not be used.
    case failure = 1
    /// The command line is wrong: an unknown command or option, a value out of range, a time past
    /// the end of its song, a SoundFont name that names none (EX_USAGE).
    case usage = 64
    /// There is no sound server to play through (EX_UNAVAILABLE).
    case noSoundServer = 69
    /// Stopped by SIGHUP (the terminal closed): 128 + the signal's number, as shells report it.
    case hangUp = 129
    /// Stopped by Ctrl-C (SIGINT).
    case interrupted = 130
    /// Stopped by SIGTERM.
    case terminated = 143

    /// The rule in one line, for the end of a command's help.
    static let helpLine =
        "Exit status: 0 done, 1 a file, the configuration or a SoundFont could not be used "
        + "(the rest was done), 64 a wrong command line, 69 no sound server, 130/143/129 stopped by Ctrl-C, "
        + "SIGTERM or SIGHUP."
}
