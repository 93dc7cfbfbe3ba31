/// A resume state that could not be used: the player starts fresh, and says why.
public struct ResumeStateWarning: Hashable, Sendable, CustomStringConvertible {
    /// The state file.
    public let path: String
    /// What is wrong with it, in a few words.
    public let reason: String
    /// Where the file was moved, to be looked at; nil when it could not be moved,
    /// and then `moveFailure` says why.
    public let movedTo: String?
    public let moveFailure: String?

    public var description: String {
        let kept = movedTo.map { "kept as \($0)" } ?? "could not be moved aside (\(moveFailure ?? "unknown error"))"
        return "\(path): cannot resume: \(reason); \(kept), starting afresh"
    }
}
