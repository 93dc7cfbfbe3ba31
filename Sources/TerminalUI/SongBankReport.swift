import Synthesis

/// `smfplay info`'s word on the sound bank a song will be heard with on top of the configured
/// SoundFonts: what it holds, where it is and why it is the one (``SongBankLookup``).
///
/// In `--json`, the summary's fields (`kind`, `byteCount`, `presetCount`, `bankOffset`) stay
/// where they were before sidecar banks, beside `reason` and the others.
public struct SongBankReport: Encodable, Sendable {
    /// Nil when a bank file beside the song cannot be read (`problem` says why).
    public var summary: SoundBankSummary?
    public var reason: SongBankReason
    /// A bank file's name, in the song's folder; nil for the bank in the song's own file.
    public var file: String?
    /// For a bank in the song's own file: the bank beside it that it wins over.
    public var sidecarNotUsed: String?
    /// Why a bank in the song's own file will not be heard (a song from standard input).
    public var notUsed: String?
    /// Why a bank file beside the song cannot be read.
    public var problem: String?

    /// The bank the song's own file holds; `sidecarNotUsed`, the name of the bank beside it that
    /// would have played otherwise.
    public init(embedded summary: SoundBankSummary, sidecarNotUsed: String?) {
        self.summary = summary
        reason = .embedded
        self.sidecarNotUsed = sidecarNotUsed
    }

    /// A bank file named `file` beside the song, found by `reason`; `summary` when it could be read.
    public init(file: String, reason: SongBankReason, summary: Result<SoundBankSummary, some Error>) {
        self.file = file
        self.reason = reason
        switch summary {
        case .success(let summary): self.summary = summary
        case .failure(let error): problem = "\(error)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case reason, file, sidecarNotUsed, notUsed, problem
    }

    public func encode(to encoder: any Encoder) throws {
        try summary?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(file, forKey: .file)
        try container.encodeIfPresent(sidecarNotUsed, forKey: .sidecarNotUsed)
        try container.encodeIfPresent(notUsed, forKey: .notUsed)
        try container.encodeIfPresent(problem, forKey: .problem)
    }
}
