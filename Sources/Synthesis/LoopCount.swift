/// How many times a song's loop plays beyond the first, as `--loops`, the configuration's `loops`
/// and a folder's `loops` say it.
public enum LoopCount: Hashable, Sendable {
    /// This many more passes (0: the song as written).
    case extra(Int)
    /// Until the listener goes on (`inf`; `play` only).
    case forever
    /// As many as each song's loop mark says, where its convention has a count (EMIDI, XMI);
    /// a song whose mark says none plays as the count before this one says.
    case marked

    /// How many extra passes a listener may ask for.
    public static let extraRange = 0...1000
    /// What the count may be written as, for messages.
    public static let expected = "a whole number from \(extraRange.lowerBound) to \(extraRange.upperBound), inf, or marked"

    /// `inf` (or `infinite`, `forever`), `marked`, or a number of extra passes; nil for anything else.
    public init?(text: String) {
        switch text.lowercased() {
        case "inf", "infinite", "forever": self = .forever
        case "marked": self = .marked
        default:
            guard let extra = Int(text), Self.extraRange.contains(extra) else { return nil }
            self = .extra(extra)
        }
    }

    /// As the configuration writes it.
    public var text: String {
        switch self {
        case .extra(let extra): String(extra)
        case .forever: "inf"
        case .marked: "marked"
        }
    }
}
