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
    /// The path's bytes in base64 when they are not UTF-8 (`path` shows them to people; JSON has
    /// no bytes); nil, and left out, when they are.
    var pathBytes: String?
    var summary: SongSummary?
    /// The sound bank the song brings: its file's own (RMID), or one beside it.
    var soundBank: SongBankReport?
    var warnings: [String] = []
    public var error: String?
    /// What the `.smfplay.toml` files above the file set for it, key by key; nil (left out of
    /// the JSON) for none.
    public var folderSettings: [FolderSetting]?
    /// Why a folder file cannot be used for it (a broken file, a SoundFont not there); nil for none.
    public var folderSettingsProblems: [String]?

    /// One key a folder file sets, as `info` shows it.
    public struct FolderSetting: Encodable, Equatable {
        var key: String
        var value: String
        /// The folder file's path, whole.
        var file: String
        /// The file as the text report names it (from the library root).
        var shownFile: String

        public init(key: String, value: String, file: String, shownFile: String) {
            self.key = key
            self.value = value
            self.file = file
            self.shownFile = shownFile
        }

        private enum CodingKeys: String, CodingKey {
            case key, value, file
        }
    }

    public init(path: String, pathBytes: String? = nil, summary: SongSummary, soundBank: SongBankReport? = nil, warnings: [String]) {
        self.path = path
        self.pathBytes = pathBytes
        self.summary = summary
        self.soundBank = soundBank
        self.warnings = warnings
    }

    public init(path: String, pathBytes: String? = nil, error: String) {
        self.path = path
        self.pathBytes = pathBytes
        self.error = error
    }

    /// The one-line error for standard error, as `path: reason`.
    public var errorLine: String? { error.map { "\(path): \($0)" } }
}
