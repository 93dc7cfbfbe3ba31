import SMF

/// What `smfplay info --json` prints.
struct InfoDocument: Encodable {
    var files: [FileReport]
}

/// One file's part of `smfplay info`: its summary and warnings, or its error.
struct FileReport: Encodable {
    var path: String
    var summary: SongSummary?
    var warnings: [String] = []
    var error: String?

    init(path: String, summary: SongSummary, warnings: [String]) {
        self.path = path
        self.summary = summary
        self.warnings = warnings
    }

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    /// The one-line error for standard error, as `path: reason`.
    var errorLine: String? { error.map { "\(path): \($0)" } }
}
