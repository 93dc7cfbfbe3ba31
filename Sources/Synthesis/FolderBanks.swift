import Files
import SystemPackage

/// The sound bank files in one folder, and the rules that pick one of them for a song there (the
/// first that finds one wins): the song's own name, the folder's name, the folder's only bank.
///
/// Only the bank files are kept, so a folder of hundreds of songs costs a few names.
struct FolderBanks: Hashable, Sendable {
    /// In the order the rules prefer among several matches: `.sf2`, `.sf3`, `.dls`, then by bytes
    /// (a folder lists its names in no particular order).
    let banks: [BankFileName]

    init(banks: [BankFileName]) {
        self.banks = banks.sorted { a, b in
            a.fileExtension != b.fileExtension ? a.fileExtension < b.fileExtension : a.bytes.lexicographicallyPrecedes(b.bytes)
        }
    }

    /// The bank files in the folder at `folder` (links followed: a link to a bank is a bank);
    /// nil when it cannot be listed. A folder named like a bank is no bank.
    init?(listing folder: FilePath) {
        guard let names = folder.entryNames() else { return nil }
        let folderBytes = folder.bytes
        var banks: [BankFileName] = []
        for name in names {
            // The extension is checked first: only a bank's name costs a `stat`.
            guard let bank = BankFileName(name.bytes) else { continue }
            if FilePath(bytes: folderBytes + [UInt8(ascii: "/")] + bank.bytes).kind == .regular { banks.append(bank) }
        }
        self.init(banks: banks)
    }

    /// The bank files at a place inside an archive (`rip.zip`, `rip.zip/BGM`: game-music rips come
    /// zipped with their banks); nil when it is no such place.
    init?(archived folder: FilePath) {
        guard let archived = ArchivedPath(folder), let listing = try? archived.folder(memberLimit: Archive.memberSizeCeiling), listing.exists
        else { return nil }
        self.init(banks: listing.files.compactMap { BankFileName($0.name) })
    }

    /// The bank for the song named `song` (its whole name's bytes) in a folder named `folderName`
    /// (nil for `/`), and why.
    func bank(forSongNamed song: ArraySlice<UInt8>, folderName: ArraySlice<UInt8>?) -> (name: BankFileName, reason: SongBankReason)? {
        if let bank = bank(named: BankFileName.baseName(ofSong: song)) { return (bank, .sameName) }
        if let folderName, let bank = bank(named: folderName) { return (bank, .folderName) }
        if banks.count == 1 { return (banks[0], .onlyBankInFolder) }
        return nil
    }

    /// The bank whose base name is `base`, case aside: of several, one spelt exactly so first
    /// (`Song.sf2` for `Song.mid` over `SONG.sf2`), in the preferred extension.
    private func bank(named base: ArraySlice<UInt8>) -> BankFileName? {
        let comparable = BankFileName.comparable(base)
        let matches = banks.filter { $0.comparableBase == comparable }
        return matches.first { $0.baseBytes.elementsEqual(base) && $0.fileExtension == matches[0].fileExtension } ?? matches.first
    }
}
