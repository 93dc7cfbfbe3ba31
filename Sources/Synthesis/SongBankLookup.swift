import Files
import SMF
import SystemPackage

/// Where a song's own sound bank is looked for, heard on top of the configured SoundFonts: in the
/// song's file (an RMID file's embedded bank) first; then beside it (sidecar banks), the first
/// rule that finds one winning: `SONG.sf2`, `.sf3` or `.dls` beside `SONG.mid` (the same base
/// name, case aside), a bank named like the folder (`Folder/Folder.sf2`), the folder's only bank.
///
/// Make one per command run and pass copies of it down: the copies share the folders already
/// listed (``FolderBankCache``), from any thread. Two lookups are equal when they look in the same
/// places; what they have listed does not count.
public struct SongBankLookup: Hashable, Sendable {
    /// Whether banks beside the song are looked for (`--no-sidecar` and the configuration's
    /// `sidecar_soundfonts = false` turn it off).
    public var sidecars: Bool
    /// Shared by every copy: what it has listed.
    let folderBankCache: FolderBankCache

    public init(sidecars: Bool = true) {
        self.sidecars = sidecars
        folderBankCache = FolderBankCache()
    }

    public static func == (lhs: SongBankLookup, rhs: SongBankLookup) -> Bool {
        lhs.sidecars == rhs.sidecars
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sidecars)
    }

    /// The bank the song at `path` brings, if any: `embedded`, the bank its file holds, wins.
    public func bank(forSongAt path: FilePath, embedded: EmbeddedSoundBank?) -> SongSoundBank? {
        choice(forSongAt: path, embedded: embedded)?.bank
    }

    /// The bank the song at `path` brings, and why; `embedded`, the bank its file holds, wins.
    /// `path` is a file's: standard input has no folder to look in.
    public func choice(forSongAt path: FilePath, embedded: EmbeddedSoundBank?) -> SongBankChoice? {
        if let embedded { return SongBankChoice(bank: SongSoundBank(embedded: embedded, in: path), reason: .embedded) }
        return sidecar(forSongAt: path)
    }

    /// The bank beside the song at `path` that the rules find, whatever the song's file holds (so
    /// that `info` can name the sidecar an embedded bank wins over); nil when `sidecars` is off.
    /// Found, not loaded: a damaged bank is named here, and only its load fails
    /// (``Synthesizer/songBankProblem``).
    public func sidecar(forSongAt path: FilePath) -> SongBankChoice? {
        guard sidecars else { return nil }
        // On the path's bytes, not `FilePath.components`, which is not safe off the main thread
        // (see `FilePath.relativeBytes(under:)`): a batch render's workers look up here.
        let bytes = path.bytes
        let slash = UInt8(ascii: "/")
        let name: ArraySlice<UInt8>
        let folder: [UInt8]
        if let last = bytes.lastIndex(of: slash) {
            name = bytes[(last + 1)...]
            folder = last == 0 ? [slash] : Array(bytes[..<last])
        } else {
            name = bytes[...]
            folder = []
        }
        guard !name.isEmpty else { return nil }
        let absolute = folder.first == slash ? folder : FilePath.currentDirectory.bytes + (folder.isEmpty ? [] : [slash] + folder)
        guard let banks = folderBankCache.banks(in: FilePath(bytes: absolute)),
            let (bank, reason) = banks.bank(forSongNamed: name, folderName: Self.lastName(of: absolute))
        else { return nil }
        let bankPath = FilePath(bytes: folder.isEmpty ? bank.bytes : folder + (folder == [slash] ? [] : [slash]) + bank.bytes)
        return SongBankChoice(bank: SongSoundBank(file: bankPath), reason: reason)
    }

    /// The last name of an absolute folder path, `.` and `..` read as they say (by the names, not
    /// the links on the way: good enough for a name); nil for `/`.
    private static func lastName(of absolute: [UInt8]) -> ArraySlice<UInt8>? {
        var names: [ArraySlice<UInt8>] = []
        for name in absolute.split(separator: UInt8(ascii: "/")) {
            if name.elementsEqual([UInt8(ascii: ".")]) { continue }
            if name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                _ = names.popLast()
                continue
            }
            names.append(name)
        }
        return names.last
    }
}
