import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

#if canImport(Glibc)
    import Glibc
#endif

/// Which bank beside a song `SongBankLookup` finds, and why, in real folders with real banks
/// (written by `TestSoundBank`) and songs (written by `SMFWriter`).
@Suite("Sidecar banks: which bank beside a song is found")
struct SidecarBankLookupTests {
    static let bank = TestSoundBank(presets: [.init("Sidecar Sine", program: 0, waveform: .sine)])

    /// A folder holding `songs` and `banks` (SF2 bytes under every name: only names count here).
    private func folder(songs: [String], banks: [String], in sub: String = "Album") throws -> (TemporaryFolder, FilePath) {
        let root = try TemporaryFolder()
        let bytes = try Self.bank.bytes(.soundFont2)
        for song in songs { try root.create("\(sub)/\(song)", Self.song) }
        for bank in banks { try root.create("\(sub)/\(bank)", bytes) }
        return (root, root.filePath(sub))
    }

    static let song: [UInt8] = {
        var track = Track()
        track.append(.noteOn(channel: 0, note: 60, velocity: 96), atTick: 0)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 96)
        track.append(.meta(.endOfTrack), atTick: 96)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track]))
    }()

    /// A bank found: its name, and why.
    struct Found: Equatable, CustomStringConvertible {
        var name: String
        var reason: SongBankReason
        init(_ name: String, _ reason: SongBankReason) {
            self.name = name
            self.reason = reason
        }
        var description: String { "\(name) (\(reason))" }
    }

    /// The bank found for `song` in `folder`, and why.
    private func found(_ song: String, in folder: FilePath, lookup: SongBankLookup = SongBankLookup()) -> Found? {
        guard let choice = lookup.sidecar(forSongAt: folder.appending(song)), case .file(let path) = choice.bank.source else { return nil }
        #expect(path.removingLastComponent() == folder, "the bank is in the song's folder")
        #expect(choice.bank.bankOffset == 0, "a sidecar is heard at its own bank numbers")
        return Found(path.lastComponent!.string, choice.reason)
    }

    @Test("same name first, then named like the folder, then the folder's only bank")
    func rulesInOrder() throws {
        var (root, folder) = try folder(songs: ["Chopin.mid", "Other.mid"], banks: ["Chopin.sf2", "Album.sf2"])
        #expect(found("Chopin.mid", in: folder) == Found("Chopin.sf2", .sameName))
        #expect(found("Other.mid", in: folder) == Found("Album.sf2", .folderName))

        (root, folder) = try self.folder(songs: ["Other.mid"], banks: ["Piano.dls"])
        #expect(found("Other.mid", in: folder) == Found("Piano.dls", .onlyBankInFolder))
        // The only bank is also a song's same-name bank: the first rule says why.
        try root.create("Album/Piano.mid", Self.song)
        #expect(found("Piano.mid", in: folder) == Found("Piano.dls", .sameName))
        _ = root
    }

    @Test("two banks, neither named like the song nor its folder: none")
    func twoBanksNoMatch() throws {
        let (root, folder) = try folder(songs: ["Song.mid"], banks: ["Strings.sf2", "Piano.sf3"])
        #expect(found("Song.mid", in: folder) == nil)
        // Nor a folder with no bank at all.
        let (other, empty) = try self.folder(songs: ["Song.mid"], banks: [])
        #expect(found("Song.mid", in: empty) == nil)
        _ = (root, other)
    }

    @Test(
        "names match case aside: ASCII, accented and full-width letters, composed or not; the extension in any case",
        arguments: [
            ("chopin.MID", "CHOPIN.Sf3"),
            ("Étude.mid", "étude.sf2"),
            // "Étude" decomposed (E, combining acute), as macOS writes names.
            ("E\u{301}tude.mid", "étude.DLS"),
            ("ＡＢ.mid", "ａｂ.sf2"),
        ])
    func caseInsensitive(song: String, bank: String) throws {
        let (root, folder) = try folder(songs: [song], banks: [bank, "Other.sf2"])
        #expect(found(song, in: folder) == Found(bank, .sameName))
        _ = root
    }

    @Test("Shift-JIS names are compared by their characters: ア (83 41) is not チ (83 61), whose second byte is a lower-case a")
    func shiftJISNames() throws {
        let root = try TemporaryFolder()
        let folder = try FilePath(root.createFolder("Album"))
        let a: [UInt8] = [0x83, 0x41]
        let chi: [UInt8] = [0x83, 0x61]
        let sf2 = try Self.bank.bytes(.soundFont2)
        // By bytes: no String names them (FileManager would write U+FFFD in their place).
        func write(_ name: [UInt8], _ bytes: [UInt8]) throws -> FilePath {
            let path = FilePath(bytes: folder.bytes + Array("/".utf8) + name)
            let descriptor = path.withPlatformString { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
            guard descriptor >= 0 else { throw TestFailure("cannot create \(path): \(errno)") }
            defer { close(descriptor) }
            guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw TestFailure("cannot write \(path)") }
            return path
        }
        let song = try write(a + Array(".mid".utf8), Self.song)
        #expect(song.withPlatformString { access($0, F_OK) } == 0, "the name is on disk as written")
        _ = try write(chi + Array(".sf2".utf8), sf2)
        _ = try write(Array("Other.sf2".utf8), sf2)
        #expect(SongBankLookup().sidecar(forSongAt: song) == nil)
        let same = try write(a + Array(".SF2".utf8), sf2)
        #expect(SongBankLookup().sidecar(forSongAt: song) == SongBankChoice(bank: SongSoundBank(file: same), reason: .sameName))
    }

    @Test("of several banks of the song's name: .sf2 before .sf3 before .dls, and the spelling of the song's name first")
    func preferenceAmongMatches() throws {
        let (root, folder) = try folder(songs: ["Song.mid"], banks: ["song.dls", "SONG.sf3", "song.sf2", "Song.sf2"])
        #expect(found("Song.mid", in: folder) == Found("Song.sf2", .sameName))
        try FileManager.default.removeItem(atPath: root.file("Album/Song.sf2"))
        #expect(found("Song.mid", in: folder) == Found("song.sf2", .sameName))
        try FileManager.default.removeItem(atPath: root.file("Album/song.sf2"))
        #expect(found("Song.mid", in: folder) == Found("SONG.sf3", .sameName))
    }

    @Test("hidden files and folders named like banks are no banks: the folder's only bank is still the only one")
    func hiddenAndFoldersIgnored() throws {
        let (root, folder) = try folder(songs: ["Song.mid"], banks: ["Piano.sf2", ".Piano.sf2.tmp.sf2", ".sf2"])
        try root.createFolder("Album/Drums.sf2")
        #expect(found("Song.mid", in: folder) == Found("Piano.sf2", .onlyBankInFolder))
    }

    @Test("sidecars off (--no-sidecar, sidecar_soundfonts = false): none is looked for")
    func sidecarsOff() throws {
        let (root, folder) = try folder(songs: ["Chopin.mid"], banks: ["Chopin.sf2"])
        #expect(found("Chopin.mid", in: folder, lookup: SongBankLookup(sidecars: false)) == nil)
        #expect(SongBankLookup(sidecars: false).bank(forSongAt: folder.appending("Chopin.mid"), embedded: nil) == nil)
        _ = root
    }

    @Test("the song's embedded bank wins over the bank beside it, which is still named for info")
    func embeddedWins() throws {
        let (root, folder) = try folder(songs: ["Chopin.rmi"], banks: ["Chopin.sf2"])
        let song = folder.appending("Chopin.rmi")
        let embedded = EmbeddedSoundBank(format: .soundFont, bytes: 100..<200, bankOffset: 1)
        let lookup = SongBankLookup()
        #expect(
            lookup.choice(forSongAt: song, embedded: embedded) == SongBankChoice(bank: SongSoundBank(embedded: embedded, in: song), reason: .embedded)
        )
        #expect(lookup.bank(forSongAt: song, embedded: embedded) == SongSoundBank(embedded: embedded, in: song))
        #expect(lookup.bank(forSongAt: song, embedded: nil) == SongSoundBank(file: folder.appending("Chopin.sf2")))
        #expect(lookup.sidecar(forSongAt: song)?.reason == .sameName)
        _ = root
    }

    @Test("a damaged bank is found all the same: the lookup names it, its load fails (SidecarBankSoundTests)")
    func damagedBankIsFound() throws {
        let (root, folder) = try folder(songs: ["Song.mid"], banks: [])
        try root.create("Album/Song.sf2", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("junk".utf8))
        #expect(found("Song.mid", in: folder) == Found("Song.sf2", .sameName))
    }

    @Test("a folder's listing is kept once it has settled, and listed again once a name in it changes")
    func listingKeptUntilTheFolderChanges() throws {
        let (root, folder) = try folder(songs: ["A.mid", "B.mid"], banks: ["One.sf2", "Two.sf2"])
        let lookup = SongBankLookup()
        let cache = lookup.folderBankCache
        // Just written: not kept, since a name added in the same clock tick would not show.
        #expect(found("A.mid", in: folder, lookup: lookup) == nil)
        #expect(!cache.holdsListing(of: folder))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: folder.string)
        #expect(found("A.mid", in: folder, lookup: lookup) == nil)
        #expect(cache.holdsListing(of: folder))
        let listed = cache.listingCount
        // Every song of the folder, on four threads at once: no listing more.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100 { #expect(lookup.sidecar(forSongAt: folder.appending("B.mid")) == nil) }
        }
        #expect(cache.listingCount == listed)
        // A copy shares what was listed.
        let copy = lookup
        #expect(found("B.mid", in: folder, lookup: copy) == nil && cache.listingCount == listed)

        try FileManager.default.removeItem(atPath: root.file("Album/Two.sf2"))
        #expect(found("A.mid", in: folder, lookup: lookup) == Found("One.sf2", .onlyBankInFolder))
        #expect(cache.listingCount == listed + 1)
    }

    @Test("a folder reached through . and ..: its name read through them, the bank's path as the song's")
    func pathsThroughDotDot() throws {
        let (root, folder) = try folder(songs: ["Song.mid"], banks: ["Album.sf2", "Other.sf2"])
        try root.createFolder("Album/Sub")
        let song = FilePath(folder.string + "/Sub/./../Song.mid")
        let choice = try #require(SongBankLookup().sidecar(forSongAt: song))
        #expect(choice == SongBankChoice(bank: SongSoundBank(file: FilePath(folder.string + "/Sub/./../Album.sf2")), reason: .folderName))
        #expect(SongBankLookup().sidecar(forSongAt: "/") == nil)
    }
}
