/// Why a song is heard with the bank it brings: the rule that chose it, for `smfplay info` and
/// `--json` (its raw value) to say.
public enum SongBankReason: String, Codable, Hashable, Sendable, CaseIterable {
    /// The song's own file holds it (an RMID file's embedded bank): it wins over any beside it.
    case embedded
    /// `SONG.sf2`, `.sf3` or `.dls` beside `SONG.mid`.
    case sameName
    /// `Folder/Folder.sf2`: a bank named like the song's folder.
    case folderName
    /// The one bank file in the song's folder.
    case onlyBankInFolder
}

extension SongBankReason: CustomStringConvertible {
    /// As `info` says it, in parentheses after the bank.
    public var description: String {
        switch self {
        case .embedded: "the file's own"
        case .sameName: "same name"
        case .folderName: "named like its folder"
        case .onlyBankInFolder: "the folder's only bank"
        }
    }
}
