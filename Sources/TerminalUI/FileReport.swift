import SMF
import Synthesis

/// What `smfplay info --json` prints.
public struct InfoDocument: Encodable {
    var files: [FileReport]

    public init(files: [FileReport]) {
        self.files = files
    }
}

/// One file's part of `smfplay info`: its summary and warnings, or its error.
public struct FileReport: Encodable {
    var path: String
    var summary: SongSummary?
    /// The sound bank the song brings: its file's own (RMID), or one beside it.
    var soundBank: SongBankReport?
    var warnings: [String] = []
    public var error: String?

    public init(path: String, summary: SongSummary, soundBank: SongBankReport? = nil, warnings: [String]) {
        self.path = path
        self.summary = summary
        self.soundBank = soundBank
        self.warnings = warnings
    }

    public init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    /// The one-line error for standard error, as `path: reason`.
    public var errorLine: String? { error.map { "\(path): \($0)" } }
}
