import Files
import SystemPackage

/// Why the player cannot take the resume state for itself.
public enum ResumeLockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another player holds the lock; `pid` is the process it wrote in the lock
    /// file, when it had written it yet.
    case heldByAnotherPlayer(lockFile: FilePath, pid: Int32?)
    /// The lock file cannot be created or locked (a read-only folder, no space).
    case unusable(lockFile: FilePath, reason: String)

    public var description: String {
        switch self {
        case .heldByAnotherPlayer(_, let pid?): "another smfplay is already playing (pid \(pid))"
        case .heldByAnotherPlayer(_, nil): "another smfplay is already playing"
        case .unusable(let lockFile, let reason): "\(lockFile.text): cannot lock the resume state: \(reason)"
        }
    }
}
