import Configuration
import Files
import SMF
import Synchronization
import Synthesis
import SystemPackage
import Testing

/// The `.smfplay.toml` files in a song's folder and the folders above it: read with the
/// configuration file's rules and messages, merged nearest first key by key, each read once.
struct FolderSettingsTests {
    /// A library under a temporary folder, with a locator that finds SoundFont names in `fonts/`
    /// (and nowhere on the machine).
    struct Library {
        let folder: TemporaryFolder
        var root: FilePath { folder.filePath.appending("lib") }
        var locator: SoundFontLocator { SoundFontLocator(searchFolders: [folder.filePath.appending("fonts")], systemLocations: []) }

        init() throws {
            folder = try TemporaryFolder()
            try folder.makeFolder("lib")
        }

        func lookup(read: @escaping FolderSettingsLookup.Reader = FolderSettingsLookup.readFile) -> FolderSettingsLookup {
            FolderSettingsLookup(libraryRoot: root, locator: locator, read: read)
        }

        /// Writes `lib/<folder>/.smfplay.toml` and returns its path.
        @discardableResult
        func settings(_ folder: String, _ text: String) throws -> FilePath {
            try self.folder.write("lib/" + (folder.isEmpty ? "" : folder + "/") + FolderSettings.fileName, text)
        }

        func song(_ relative: String) -> FilePath {
            root.pushing(FilePath(relative))
        }
    }

    /// A reader that counts the reads of each file.
    final class CountingReader: Sendable {
        let counts = Mutex<[FilePath: Int]>([:])

        var read: FolderSettingsLookup.Reader {
            { [self] (path: FilePath) throws(ConfigurationError) -> String? in
                self.counts.withLock { $0[path, default: 0] += 1 }
                return try FolderSettingsLookup.readFile(path)
            }
        }
    }

    @Test func theNearestFileWinsKeyByKeyAcrossThreeLevels() throws {
        let library = try Library()
        let top = try library.settings("", "midi_mode = \"gs\"\ngain = 0.5\n[reverb]\nlevel = 0.8\nwidth = 20\n")
        let middle = try library.settings("Chopin", "gain = 0.3\n[reverb]\nroom_size = 0.6\nwidth = 30\n")
        let nearest = try library.settings("Chopin/Nocturnes", "transpose = -2\n[reverb]\nlevel = 0.4\n")
        let settings = try library.lookup().settings(forSongAt: library.song("Chopin/Nocturnes/Op.9 No.2.mid"))
        #expect(settings.midiMode == .init(.gs, file: top))
        #expect(settings.gain == .init(0.3, file: middle))
        #expect(settings.transpose == .init(-2, file: nearest))
        #expect(settings.reverbLevel == .init(0.4, file: nearest))
        #expect(settings.reverbRoomSize == .init(0.6, file: middle))
        #expect(settings.reverbWidth == .init(30, file: middle))
        #expect(settings.fade == nil)
        // A song in the middle folder does not get the nearest folder's.
        let beside = try library.lookup().settings(forSongAt: library.song("Chopin/Ballade.mid"))
        #expect(beside.transpose == nil)
        #expect(beside.reverbLevel == .init(0.8, file: top))
    }

    @Test func infoListsEachKeyWithTheFileThatSetIt() throws {
        let library = try Library()
        try library.settings("", "midi_mode = \"gs\"\nloops = \"inf\"\n")
        try library.settings("Chopin", "gain = 0.3\ntext_encoding = \"auto\"\n[chorus]\nenabled = false\n")
        let lookup = library.lookup()
        let entries = try lookup.settings(forSongAt: library.song("Chopin/a.mid")).entries
        let shown = entries.map { "\($0.key.rawValue) \($0.value) (\(lookup.displayName(of: $0.file)))" }
        #expect(
            shown == [
                "midi_mode gs (.smfplay.toml)", "text_encoding auto (Chopin/.smfplay.toml)", "gain 0.3 (Chopin/.smfplay.toml)",
                "loops inf (.smfplay.toml)", "chorus.enabled false (Chopin/.smfplay.toml)",
            ])
    }

    /// The command's settings: the configuration's defaults and TimGM6mb.
    static let command = SongSettings(
        soundFonts: SoundFontStack(["/fonts/TimGM6mb.sf2"], byMode: [.gs: ["/fonts/SC-55.sf2"]]),
        synthesizer: SynthesizerSettings(gain: 0.16, reverb: nil),
        performance: Performance(transpose: 1, tempo: 0.8),
        loops: LoopSettings(passes: 1, fadeSeconds: 0))

    @Test func theCommandLineWinsKeyByKey() throws {
        let library = try Library()
        try library.settings(
            "Game",
            "gain = 0.5\ntranspose = 3\nloops = 2\nfade = 8\nmidi_mode = \"xg\"\n[reverb]\nenabled = true\nlevel = 0.3\n[chorus]\nenabled = false\n")
        let settings = try library.lookup().settings(forSongAt: library.song("Game/Field.mid"))

        let folderOnly = try settings.applied(to: Self.command, commandLine: [])
        #expect(folderOnly.synthesizer.gain == 0.5)
        #expect(folderOnly.synthesizer.midiMode == .xg)
        #expect(folderOnly.performance == Performance(transpose: 3, tempo: 0.8))
        #expect(folderOnly.loops == LoopSettings(passes: 3, fadeSeconds: 8))
        // Turned on here, off in the command: FluidSynth's defaults under the file's level.
        #expect(folderOnly.synthesizer.reverb == SynthesizerSettings.Reverb(level: 0.3))
        #expect(folderOnly.synthesizer.chorus == nil)
        #expect(folderOnly.soundFonts == Self.command.soundFonts)
        #expect(folderOnly.needsOwnSynthesizer(comparedTo: Self.command))

        // --gain, --transpose, --loops and --no-reverb given: those stay the command's, the rest are the file's.
        let commandLine = try settings.applied(to: Self.command, commandLine: [.gain, .transpose, .loops, .reverbEnabled])
        #expect(commandLine.synthesizer.gain == 0.16)
        #expect(commandLine.performance.transpose == 1)
        #expect(commandLine.loops == LoopSettings(passes: 1, fadeSeconds: 8))
        #expect(commandLine.synthesizer.reverb == nil)
        #expect(commandLine.synthesizer.midiMode == .xg)

        // loops = "marked": the song's mark decides; a song without a count keeps the command's passes.
        try library.settings("Game", "loops = \"marked\"\n")
        let marked = try library.lookup().settings(forSongAt: library.song("Game/Field.mid"))
        #expect(marked.entries.first?.value == "marked")
        let followsMarks = try marked.applied(to: Self.command, commandLine: []).loops
        #expect(followsMarks == LoopSettings(passes: 1, fadeSeconds: 0, followsMarks: true))
        #expect(followsMarks.applying(markedPasses: 3).passes == 3)
        #expect(folderMessage("loops = \"twice\"") == #"f.toml:1: key 'loops' must be "inf", "marked" or a whole number from 0 to 1000, not "twice""#)

        // No folder file: the command's settings as they are.
        #expect(try FolderSettings().applied(to: Self.command, commandLine: []) == Self.command)
    }

    @Test func aFolderSoundFontReplacesTheStackUnlessTheCommandLineGivesOne() throws {
        let library = try Library()
        let piano = try library.folder.write("lib/Chopin/fonts/Piano.sf2", "not checked here")
        let organ = try library.folder.write("fonts/Organ.sf2", "not checked here")
        // A relative path with a folder in it starts at the folder file's folder; a bare name is looked up.
        try library.settings("Chopin", "soundfont = [\"fonts/Piano.sf2\", \"Organ\"]\n")
        let settings = try library.lookup().settings(forSongAt: library.song("Chopin/Nocturnes/a.mid"))
        #expect(settings.soundFonts?.value.located == .success([piano, organ]))
        #expect(settings.entries.first?.value == "[fonts/Piano.sf2, Organ]")
        let song = try settings.applied(to: Self.command, commandLine: [])
        #expect(song.soundFonts == SoundFontStack([piano, organ]))
        #expect(try settings.applied(to: Self.command, commandLine: [.soundFont]).soundFonts == Self.command.soundFonts)
    }

    @Test func aSoundFontThatIsNotThereFailsOnlyTheSongsThatPlayWithIt() throws {
        let library = try Library()
        let file = try library.settings("Chopin", "gain = 0.3\nsoundfont = \"fonts/Gone.sf2\"\n")
        let settings = try library.lookup().settings(forSongAt: library.song("Chopin/a.mid"))
        let expected = "\(file.text):2: key 'soundfont': no such file: \(library.root.text)/Chopin/fonts/Gone.sf2"
        #expect(settings.soundFontProblem?.description == expected)
        let error = #expect(throws: FolderSettingsError.self) { try settings.applied(to: Self.command, commandLine: []) }
        #expect(error?.description == expected)
        #expect(try settings.applied(to: Self.command, commandLine: [.soundFont]).synthesizer.gain == 0.3)
    }

    @Test func aBadKeyNamesTheFileAndLineWithTheKeyMeant() throws {
        let library = try Library()
        let file = try library.settings("Chopin", "gain = 0.3\n\n[reverb]\nlevl = 0.4\n")
        let error = #expect(throws: FolderSettingsError.self) { try library.lookup().settings(forSongAt: library.song("Chopin/a.mid")) }
        #expect(error?.description == "\(file.text):4: unknown key 'reverb.levl' (did you mean 'reverb.level'?)")
        #expect(error?.path == file)
        #expect(error?.line == 4)
        // The configuration file's `[soundfonts]` table, and its keys that are the same for every song, are not a folder file's.
        #expect(folderMessage("soundfonts = \"SC-55\"") == "f.toml:1: unknown key 'soundfonts' (did you mean 'soundfont'?)")
        #expect(folderMessage("gain = 0.2\nsample_rate = 48000") == "f.toml:2: unknown key 'sample_rate'")
    }

    @Test func aBadValueNamesTheFileAndLine() throws {
        let library = try Library()
        let file = try library.settings("", "# Game music\ntranspose = 30\n")
        let error = #expect(throws: FolderSettingsError.self) { try library.lookup().settings(forSongAt: library.song("Game/a.mid")) }
        #expect(error?.description == "\(file.text):2: key 'transpose' must be a whole number from -24 to 24, not 30")
        #expect(folderMessage("loops = -1") == #"f.toml:1: key 'loops' must be "inf", "marked" or a whole number from 0 to 1000, not -1"#)
        #expect(folderMessage("midi_mode = \"sc55\"") == #"f.toml:1: key 'midi_mode' must be "auto", "gm", "gs", "xg" or "gm2", not "sc55""#)
        #expect(folderMessage("[chorus]\nspeed = 0") == "f.toml:2: key 'chorus.speed' must be a number from 0.1 to 5, not 0")
        #expect(folderMessage("gain = ") == "f.toml:1:8: key 'gain': Error while parsing key-value pair: encountered end-of-file")
    }

    @Test func aFileAboveTheLibraryIsNotRead() throws {
        let library = try Library()
        let above = try library.folder.write(FolderSettings.fileName, "gain = 9\n")
        try library.settings("", "midi_mode = \"gm\"\n")
        let lookup = library.lookup()
        let inside = try lookup.settings(forSongAt: library.song("Chopin/a.mid"))
        #expect(inside.gain == nil)
        #expect(inside.midiMode != nil)
        #expect(lookup.folders(forSongAt: library.song("Chopin/a.mid")) == [library.root.appending("Chopin"), library.root])
        // A song outside the library has the files of every folder above it, up to /.
        let outside = library.folder.filePath.appending("Downloads/b.mid")
        #expect(try lookup.settings(forSongAt: outside).gain == .init(9, file: above))
        #expect(lookup.folders(forSongAt: outside).last == "/")
    }

    @Test func dotDotGoesBackANameAsTheShellDoes() throws {
        let library = try Library()
        try library.settings("Bach", "gain = 1\n")
        let chopin = try library.settings("Chopin", "gain = 0.3\n")
        let settings = try library.lookup().settings(forSongAt: library.song("Bach/../Chopin/./a.mid"))
        #expect(settings.gain == .init(0.3, file: chopin))
    }

    @Test func eachFileIsReadOnceForTheRun() throws {
        let library = try Library()
        let folders = (1...10).map { "Composer \($0)" }
        for folder in folders { try library.settings(folder, "gain = 0.3\n") }
        try library.settings("", "midi_mode = \"gs\"\n")
        let reader = CountingReader()
        let lookup = library.lookup(read: reader.read)
        for index in 0..<1000 {
            _ = try lookup.settings(forSongAt: library.song("\(folders[index % folders.count])/Song \(index).mid"))
        }
        let counts = reader.counts.withLock { $0 }
        // The ten folders' files and the root's, each once; and not one folder above the library.
        #expect(counts.count == 11)
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
    }

    @Test func aBrokenFileIsReadOnceAndGivesTheSameErrorForEverySong() throws {
        let library = try Library()
        try library.settings("Chopin", "gian = 0.3\n")
        let reader = CountingReader()
        let lookup = library.lookup(read: reader.read)
        for name in ["a", "b", "c"] {
            #expect(throws: FolderSettingsError.self) { try lookup.settings(forSongAt: library.song("Chopin/\(name).mid")) }
        }
        #expect(reader.counts.withLock { $0[library.root.appending("Chopin/.smfplay.toml")] } == 1)
    }

    @Test func shiftJISFolderNames() throws {
        let library = try Library()
        // "ショパン" in Shift-JIS, as a Japanese archive unpacked on Linux names a folder.
        let name: [UInt8] = [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93]
        let folder = FilePath(bytes: library.root.bytes + [UInt8(ascii: "/")] + name)
        try folder.makeFolders(permissions: [.ownerReadWriteExecute])
        let file = FilePath(bytes: folder.bytes + Array("/.smfplay.toml".utf8))
        try AtomicWrite.write(Array("text_encoding = \"shift-jis\"\n".utf8), to: file)
        let lookup = library.lookup()
        let song = FilePath(bytes: folder.bytes + [UInt8(ascii: "/")] + [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8] + Array(".mid".utf8))
        let settings = try lookup.settings(forSongAt: song)
        #expect(settings.textEncoding == .init(.shiftJIS, file: file))
        #expect(settings.textEncoding?.file.bytes == file.bytes)
        #expect(lookup.displayName(of: file) == "ショパン/.smfplay.toml")
    }
}

/// The message a folder file's text gives, or nil when it is accepted.
private func folderMessage(_ text: String) -> String? {
    do {
        _ = try FolderSettings(parsing: text, path: "f.toml", locator: SoundFontLocator(searchFolders: [], systemLocations: []))
        return nil
    } catch {
        return error.description
    }
}
