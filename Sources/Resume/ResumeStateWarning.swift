import Files
import SystemPackage

/// A resume state that could not be used: the player starts fresh (or, when only carrying an old
/// state over failed, resumes all the same), and says why.
public struct ResumeStateWarning: Hashable, Sendable, CustomStringConvertible {
    /// The state's file.
    public let path: FilePath
    /// What is wrong with it, in a few words.
    public let reason: String
    /// Where the file was moved, to be looked at; nil when it was not moved, and then
    /// `moveFailure` says why if a move was tried.
    public let movedTo: FilePath?
    public let moveFailure: String?
    public let startsAfresh: Bool

    public init(path: FilePath, reason: String, movedTo: FilePath?, moveFailure: String?, startsAfresh: Bool = true) {
        self.path = path
        self.reason = reason
        self.movedTo = movedTo
        self.moveFailure = moveFailure
        self.startsAfresh = startsAfresh
    }

    public var description: String {
        guard startsAfresh else { return "\(path.text): \(reason)" }
        let kept =
            if let movedTo { "; kept as \(movedTo.text)" } else if let moveFailure { "; could not be moved aside (\(moveFailure))" } else { "" }
        return "\(path.text): cannot resume: \(reason)\(kept), starting afresh"
    }
}
