import SMF

/// Why no song could be read from standard input (`-` in place of a file). Every message names
/// standard input, as a file's name its file.
public enum StandardInputError: Error, CustomStringConvertible {
    /// A person at a keyboard, not a pipe: nothing would come until Ctrl-D.
    case terminal
    case unreadable(reason: String)
    /// The input ended before a single byte.
    case empty
    /// More than `StandardInput.byteLimit`; reading stopped there.
    case tooLarge(limit: Int)
    case invalid(SMFError)

    /// What went wrong, after the name.
    public var reason: String {
        switch self {
        case .terminal: "a terminal, not a pipe: - reads a MIDI file piped into smfplay, as from cat song.mid |"
        case .unreadable(let reason): "cannot read: \(reason)"
        case .empty: "empty, not a MIDI file"
        case .tooLarge(let limit): "more than \(limit >> 20) MB, more than a MIDI file may have here"
        case .invalid(let error): error.description
        }
    }

    public var description: String { "\(StandardInput.name): \(reason)" }
}
