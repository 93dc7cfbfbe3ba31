#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The player's resume state on disk: `state.json` in smfplay's state folder
/// (`$XDG_STATE_HOME/smfplay`, by default `~/.local/state/smfplay`), with
/// `state.lock` beside it for ``ResumeLock``.
///
/// ```swift
/// let store = ResumeStore(folder: XDGDirectories.current().stateFolder)
/// let lock = try store.lock()          // before anything is played
/// let loaded = store.load()            // loaded.warning: say it, and go on
/// try store.save(state)                // now and then, and on the way out
/// ```
public struct ResumeStore: Sendable {
    public static let fileName = "state.json"
    public static let lockFileName = "state.lock"
    /// Appended to the name of a state file that could not be used.
    public static let unusableSuffix = ".bad"
    /// A queue of a hundred thousand files fits many times over.
    public static let sizeLimit = 64 << 20

    public let folder: String
    public var path: String { folder + "/" + Self.fileName }
    public var lockFile: String { folder + "/" + Self.lockFileName }

    public init(folder: String) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// What `load()` found.
    public struct Loaded: Hashable, Sendable {
        /// The state to resume; nil for a fresh start.
        public let state: ResumeState?
        /// Set when a state file was there but could not be used.
        public let warning: ResumeStateWarning?
    }

    /// The saved state. No file is a fresh start; a file that cannot be used (not
    /// JSON, a value of the wrong kind, a format from another version, a folder in
    /// its place, no permission to read it) is moved aside to `state.json.bad`, so
    /// that it is neither lost nor read again, and is a fresh start with a warning.
    public func load() -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: Self.sizeLimit)
        } catch {
            switch error {
            case .missing: return Loaded(state: nil, warning: nil)
            case .unusable(let reason): return moveAside(because: reason)
            }
        }
        let data = Data(bytes)
        do {
            // The version first, so that a newer format is named as such rather than
            // as whichever key it happens to lack.
            let version = try JSONDecoder().decode(FormatVersion.self, from: data).version
            guard version == ResumeState.currentVersion else {
                return moveAside(because: "format version \(version), but this smfplay reads version \(ResumeState.currentVersion)")
            }
            let state = try JSONDecoder().decode(ResumeState.self, from: data)
            if let problem = state.problem { return moveAside(because: problem) }
            return Loaded(state: state, warning: nil)
        } catch let error as DecodingError {
            return moveAside(because: Self.reason(for: error))
        } catch {
            return moveAside(because: "not a resume state")
        }
    }

    /// Writes the state whole or not at all (see ``AtomicWrite``), creating the
    /// folder if it is missing.
    public func save(_ state: ResumeState) throws(FileWriteError) {
        if let problem = state.problem { throw FileWriteError(path: path, reason: "not saving a resume state whose \(problem)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(state)
        } catch {
            throw FileWriteError(path: path, reason: "cannot encode the resume state: \(error)")
        }
        try AtomicWrite.write(Array(data) + [UInt8(ascii: "\n")], to: path)
    }

    /// Takes the state for this player until the lock is released; see ``ResumeLock``.
    public func lock() throws(ResumeLockError) -> ResumeLock {
        try ResumeLock(lockFile: lockFile, folder: folder)
    }

    private func moveAside(because reason: String) -> Loaded {
        let destination = path + Self.unusableSuffix
        if rename(path, destination) == 0 {
            return Loaded(state: nil, warning: ResumeStateWarning(path: path, reason: reason, movedTo: destination, moveFailure: nil))
        }
        let failure = AtomicWrite.systemError().lowercased()
        return Loaded(state: nil, warning: ResumeStateWarning(path: path, reason: reason, movedTo: nil, moveFailure: failure))
    }

    /// A decoding error in a few words, naming the key: JSONDecoder's own
    /// descriptions run over several lines and name Swift types.
    static func reason(for error: DecodingError) -> String {
        func key(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not JSON"
        case .dataCorrupted(let context):
            return "\(key(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let missing, let context):
            return "\(key(context.codingPath + [missing])) is missing"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "not a JSON object"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(key(context.codingPath)) is not the kind of value it should be"
        @unknown default:
            return "not a resume state"
        }
    }

    private struct FormatVersion: Decodable {
        let version: Int
    }
}
