import SMF
import SystemPackage

/// Where a song's own sound bank is looked for: in the song's file (an RMID file's embedded bank)
/// first; beside it (sidecar banks) when asked.
public struct SongBankLookup: Hashable, Sendable {
    /// Whether banks beside the song are looked for (`--no-sidecar` turns it off).
    public var sidecars: Bool

    public init(sidecars: Bool = true) {
        self.sidecars = sidecars
    }

    /// The bank the song at `path` brings, if any: `embedded`, the bank its file holds, wins.
    public func bank(forSongAt path: FilePath, embedded: EmbeddedSoundBank?) -> SongSoundBank? {
        if let embedded { return SongSoundBank(embedded: embedded, in: path) }
        return nil
    }
}
