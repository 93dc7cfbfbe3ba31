import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `smfplay browse` end to end: the real binary in a real terminal (tmux, see TmuxTerminal), keys
// typed as a person types them, the screen read back as it shows, and the music played through a
// real PulseAudio server (see PlayCommandTests) into a null sink whose monitor is recorded.

@Suite("smfplay browse: in a terminal, through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct BrowseCommandTests {
    /// The library: composers, categories, pieces; each piece holds a note of its own for 30 s.
    static let pieces: [(path: String, note: UInt8)] = [
        ("Bach/Preludes/Prelude in C.mid", 60),
        ("Chopin/Op.9 Nocturnes/Nocturne No.1.mid", 62),
        ("Chopin/Op.9 Nocturnes/Nocturne No.2.mid", 64),
        ("Chopin/Op.10 Etudes/Etude No.3.mid", 65),
        ("Chopin/Op.10 Etudes/Etude No.12.mid", 67),
        ("Chopin/Berceuse Op.57.mid", 69),
        ("Satie/Gymnop\u{E9}die No.1.mid", 71),
    ]
    /// The files of Chopin/ as P queues them: folders first, then files, each in natural order
    /// (Op.9 before Op.10, No.3 before No.12).
    static let chopinInOrder = [
        "Chopin/Op.9 Nocturnes/Nocturne No.1.mid",
        "Chopin/Op.9 Nocturnes/Nocturne No.2.mid",
        "Chopin/Op.10 Etudes/Etude No.3.mid",
        "Chopin/Op.10 Etudes/Etude No.12.mid",
        "Chopin/Berceuse Op.57.mid",
    ]

    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
        #expect(try server.sinkInputs().isEmpty, "a stream is left from another test")
    }

    /// A sandbox with the library in `work/Library`, which the configuration names.
    func makeSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        for piece in Self.pieces { try sandbox.write("Library/" + piece.path, Songs.heldNote(piece.note, seconds: 30)) }
        try sandbox.useLibrary("Library")
        return sandbox
    }

    /// `smfplay browse` in a terminal of its own.
    func browse(_ sandbox: Sandbox, columns: Int = 80, rows: Int = 24, options: [String] = []) throws -> TmuxTerminal {
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        return try TmuxTerminal(
            smfplay.path, arguments: ["browse"] + PlayCommandTests.synthesis + options,
            environment: sandbox.environment.merging(["PULSE_SERVER": server.address]) { $1 },
            workingDirectory: sandbox.work, columns: columns, rows: rows)
    }

    /// At the library's top, selects Chopin/ and plays it with `P`.
    func playChopinFolder(on terminal: TmuxTerminal) throws {
        try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        try terminal.send("Down")
        try terminal.waitForBrowser("Chopin/ selected") { $0.selected?.name == "Chopin/" }
        try terminal.send("P")
    }

    // MARK: Names that are not UTF-8

    @Test("a folder and a file named in Shift-JIS (an old Japanese archive): shown decoded, Enter plays the file, and resume plays it again")
    func shiftJISNamesBrowsePlayAndResume() throws {
        let sandbox = try makeSandbox()
        let folder = try NonUTF8Names.makeShiftJISPiece(in: sandbox.path("Library"), note: 72)
        let terminal = try browse(sandbox)
        try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        let top = try terminal.waitForBrowser("the Shift-JIS folder, decoded") { $0.entries.contains { $0.name == NonUTF8Names.folderText + "/" } }
        #expect(top.entries.map(\.name) == ["Bach/", "Chopin/", "Satie/", NonUTF8Names.folderText + "/"], "\(top)")
        for _ in 0..<3 { try terminal.send("Down") }
        try terminal.send("Enter")
        try terminal.waitForBrowser("inside it, the file decoded") {
            $0.breadcrumb == "Library › " + NonUTF8Names.folderText && $0.selected?.name == NonUTF8Names.fileText
        }
        let take = try Take(server)
        try terminal.send("Enter")
        try terminal.waitForPlayView("the Shift-JIS file, a second in") { $0.name == NonUTF8Names.fileText && $0.elapsedSeconds >= 1 }
        try terminal.send("q")
        try terminal.waitForBrowser("the browser again") { $0.status == "Stopped." }
        let (sound, _) = try take.finish()
        #expect(sound.noteRuns().map(\.note) == [72], "the file with the Shift-JIS name was not heard")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)

        let state = try sandbox.savedStateBytes()
        #expect(state == [folder.relative], "the state has not the name's bytes: \(state)")
        let resumed = try PlayingCommand(sandbox, ["resume"] + PlayCommandTests.synthesis, server: server)
        let line = resumed.waitForLine(containing: "playing")
        #expect(line?.contains(NonUTF8Names.fileText) == true, "\(line ?? "no playing line")")
        resumed.type("q")
        let exit = resumed.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil && resumed.problems.isEmpty, "\(resumed.report(exit))")
    }

    // MARK: Archives

    @Test(
        "an LZH archive in the library (its song packed by LHarc 1's -lh1-) is a folder: Enter opens it and the Shift-JIS folder in it, Enter plays a song, Backspace leaves it; resume plays the song again from inside the archive"
    )
    func archiveBrowsesAsAFolder() throws {
        let sandbox = try makeSandbox()
        var lzh = LZHWriter(level: .level1)
        lzh.add(LZHWriter.Member(path: Array("ゲーム/ステージ1.mid".data(using: .shiftJIS)!), data: Songs.heldNote(74, seconds: 30), method: .lh1))
        try sandbox.write("Library/pack.lzh", lzh.encode())
        let terminal = try browse(sandbox)
        let top = try terminal.waitForBrowser("Library, the archive among the folders") { $0.entries.contains { $0.name == "pack.lzh/" } }
        #expect(top.entries.map(\.name) == ["Bach/", "Chopin/", "pack.lzh/", "Satie/"], "\(top)")
        for _ in 0..<2 { try terminal.send("Down") }
        try terminal.send("Enter")
        try terminal.waitForBrowser("inside the archive") { $0.breadcrumb == "Library › pack.lzh" && $0.selected?.name == "ゲーム/" }
        try terminal.send("Enter")
        try terminal.waitForBrowser("its folder") { $0.breadcrumb == "Library › pack.lzh › ゲーム" && $0.selected?.name == "ステージ1.mid" }
        let take = try Take(server)
        try terminal.send("Enter")
        try terminal.waitForPlayView("the song in the archive, a second in") { $0.name == "ステージ1.mid" && $0.elapsedSeconds >= 1 }
        try terminal.send("q")
        try terminal.waitForBrowser("the browser again") { $0.status == "Stopped." }
        let (sound, _) = try take.finish()
        #expect(sound.noteRuns().map(\.note) == [74], "the song in the archive was not heard")
        try terminal.send("BSpace")
        try terminal.send("BSpace")
        try terminal.waitForBrowser("Library, pack.lzh/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "pack.lzh/" }
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)

        let resumed = try PlayingCommand(sandbox, ["resume"] + PlayCommandTests.synthesis, server: server)
        let line = resumed.waitForLine(containing: "playing")
        #expect(line?.contains("pack.lzh/ゲーム/ステージ1.mid") == true, "\(line ?? "no playing line")")
        resumed.type("q")
        let exit = resumed.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil && resumed.problems.isEmpty, "\(resumed.report(exit))")
    }

    // MARK: Where it opens, and going back

    @Test("opens at the file played last, its folders in the breadcrumb, the file marked and selected; back climbs to the top")
    func opensAtTheLastPlayedFile() throws {
        let sandbox = try makeSandbox()
        // Played by the real player, so that the state is the program's own.
        let player = try PlayingCommand(
            sandbox, ["play", "Library/Chopin/Op.10 Etudes/Etude No.12.mid"] + PlayCommandTests.synthesis, server: server)
        #expect(player.waitForLine(containing: "Etude No.12.mid") != nil)
        player.sleep(seconds: 1)
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        try #require(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")

        let terminal = try browse(sandbox)
        let opened = try terminal.waitForBrowser("Library › Chopin › Op.10 Etudes, Etude No.12.mid selected") {
            $0.breadcrumb == "Library › Chopin › Op.10 Etudes" && $0.selected?.name == "Etude No.12.mid"
        }
        #expect(opened.entries.map(\.name) == ["Etude No.3.mid", "Etude No.12.mid"], "\(opened)")
        #expect(opened.entries.map(\.isMarked) == [false, true], "the last played file is not the one marked ▶: \(opened)")

        try terminal.send("Left")
        let chopin = try terminal.waitForBrowser("Library › Chopin, Op.10 Etudes/ selected") {
            $0.breadcrumb == "Library › Chopin" && $0.selected?.name == "Op.10 Etudes/"
        }
        #expect(chopin.entries.map(\.name) == ["Op.9 Nocturnes/", "Op.10 Etudes/", "Berceuse Op.57.mid"], "\(chopin)")
        try terminal.send("BSpace")
        try terminal.waitForBrowser("Library, Chopin/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "Chopin/" }
        // At the top, back does nothing: the next key moves on from Chopin/.
        try terminal.send("Left")
        try terminal.send("Down")
        let top = try terminal.waitForBrowser("Library, Satie/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "Satie/" }
        #expect(top.entries.map(\.name) == ["Bach/", "Chopin/", "Satie/"], "\(top)")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    /// A sandbox whose library is indexed, so that `/` searches it.
    func makeIndexedSandbox() throws -> Sandbox {
        let sandbox = try makeSandbox()
        let indexed = try sandbox.run(["index"])
        try #require(indexed.succeeded, "\(indexed)")
        return sandbox
    }

    /// Searches the library for the nocturnes, and closes the search's line with ↓ (its cursor
    /// goes): the results stay, with the second selected, and the keys are the list's again.
    func searchNocturnes(on terminal: TmuxTerminal) throws {
        try terminal.send("/")
        try terminal.type("nocturne")
        try terminal.waitFor("2 found in the library")
        try terminal.send("Down")
        try terminal.waitFor("/nocturne   2 found in the library")
    }

    @Test("Esc in the search results goes back to the folder's list, the browser still running; q then leaves with status 0")
    func escapeLeavesTheSearchResults() throws {
        let sandbox = try makeIndexedSandbox()
        let terminal = try browse(sandbox)
        try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        try searchNocturnes(on: terminal)
        try terminal.send("Escape")
        let back = try terminal.waitForBrowser("the library's top again") { $0.entries.map(\.name) == ["Bach/", "Chopin/", "Satie/"] }
        #expect(back.lines[1].allSatisfy { $0 == "─" }, "the search's line is still shown: \(back)")
        #expect(terminal.exitStatus(waitingAtMost: 0.5) == nil, "Esc left the browser")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("a library never indexed: the browser indexes it meanwhile, and / finds a file in another folder (gym finds Satie's) without smfplay index")
    func searchBeforeIndexing() throws {
        let sandbox = try makeSandbox()
        let terminal = try browse(sandbox)
        try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        _ = try terminal.waitFor("The library is indexed (7 MIDI files)")
        try terminal.send("/")
        try terminal.type("gym")
        let found = try terminal.waitForBrowser("Satie's piece found") { $0.entries.map(\.name).contains { $0.contains("Gymnop") } }
        #expect(found.entries.count == 1, "\(found)")
        try terminal.send("Escape")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
        // The index stays for the next time: smfplay search finds it at once, and reads nothing again.
        let search = try sandbox.run(["search", "gym"])
        #expect(search.succeeded && search.stdoutLines.count == 1 && search.stdout.contains("Satie/Gymnop"), "\(search)")
    }

    @Test(
        "? shows every key of the browser, and in search results theirs, at 40 columns; any key closes the page and does nothing else; the hint line ends with ? help"
    )
    func helpPages() throws {
        let sandbox = try makeIndexedSandbox()
        let terminal = try browse(sandbox, columns: 40)
        let top = try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        #expect(top.lines.last?.hasSuffix("  ? help") == true && top.lines.last?.contains("…") == false, "\(top)")
        try terminal.send("?")
        let page = try terminal.waitFor("Keys: the browser")
        for keys in ["↑/↓", "PgUp/PgDn", "Home/End", "→", "Enter", "←/Bksp", "P", "a", "/", "~", "v", "q/Esc", "?"] {
            #expect(page.contains { $0.hasPrefix("  \(keys) ") }, "\(keys) is not on the page: \(page)")
        }
        #expect(page.contains("Any key closes this help.") && !page.contains { $0.contains("…") }, "\(page)")
        // ↓ closes the page without moving.
        try terminal.send("Down")
        try terminal.waitForBrowser("the listing again, Bach/ still selected") { $0.selected?.name == "Bach/" }
        try searchNocturnes(on: terminal)
        try terminal.send("?")
        let results = try terminal.waitFor("Keys: the search results")
        for keys in ["↑/↓", "Enter", "a", "P", "/", "Esc/←", "~", "v", "q", "?"] {
            #expect(results.contains { $0.hasPrefix("  \(keys) ") }, "\(keys) is not on the page: \(results)")
        }
        // q closes the page; it does not leave.
        try terminal.send("q")
        try terminal.waitForBrowser("the results again") { $0.lines[1] == "/nocturne   2 found in the library" && $0.entries.count == 2 }
        #expect(terminal.exitStatus(waitingAtMost: 0.3) == nil, "q on the help page left the browser")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    // MARK: Playing from the browser

    @Test("Enter opens a folder; Enter on a file plays it and the files after it (audio reaches the sink); q comes back to the same place")
    func enterOpensFoldersAndPlaysFiles() throws {
        let sandbox = try makeSandbox()
        let terminal = try browse(sandbox)
        // Nothing played yet: the library's top.
        try terminal.waitForBrowser("Library, Bach/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        try terminal.send("Down")
        try terminal.send("Enter")
        try terminal.waitForBrowser("Library › Chopin") { $0.breadcrumb == "Library › Chopin" && $0.selected?.name == "Op.9 Nocturnes/" }
        try terminal.send("Down")
        try terminal.send("Right")
        try terminal.waitForBrowser("Library › Chopin › Op.10 Etudes") {
            $0.breadcrumb == "Library › Chopin › Op.10 Etudes" && $0.selected?.name == "Etude No.3.mid"
        }

        let take = try Take(server)
        try terminal.send("Enter")
        let playing = try terminal.waitForPlayView("Etude No.3.mid, 1 of 2, a second in") {
            $0.name == "Etude No.3.mid" && $0.place == "1 of 2" && $0.elapsedSeconds >= 1
        }
        #expect(playing.folders == "Chopin / Op.10 Etudes", "\(playing)")
        try terminal.send("q")
        let back = try terminal.waitForBrowser("the browser again, Etude No.3.mid selected") {
            $0.breadcrumb == "Library › Chopin › Op.10 Etudes" && $0.selected?.name == "Etude No.3.mid"
        }
        let (sound, _) = try take.finish()
        #expect(back.entries.map(\.isMarked) == [true, false], "the file just played is not the one marked ▶: \(back)")
        #expect(back.status == "Stopped.", "\(back)")
        let notes = sound.noteRuns().map(\.note)
        #expect(notes == [65], "notes heard: \(notes); Etude No.3.mid holds 65")

        // The next file: the last in its folder, so a queue of one.
        try terminal.send("Down")
        try terminal.send("Enter")
        try terminal.waitForPlayView("Etude No.12.mid, 1 of 1") { $0.name == "Etude No.12.mid" && $0.place == "1 of 1" }
        try terminal.send("q")
        let again = try terminal.waitForBrowser("the browser again, Etude No.12.mid selected and marked") {
            $0.selected?.name == "Etude No.12.mid" && $0.selected?.isMarked == true
        }
        #expect(again.breadcrumb == "Library › Chopin › Op.10 Etudes", "\(again)")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    /// `browse` takes `--cores` as `play` does (both through PlaybackOptions).
    @Test("browse --cores 2: a chord played from the browser plays on 2 cores, as the play view says")
    func browseOnTwoCores() throws {
        let sandbox = try Sandbox()
        let held = 30 * Songs.ticksPerSecond
        try sandbox.write(
            "Library/Band/Chord.mid", Songs.song(program: Songs.organ, notes: [(60, 0, held), (64, 0, held), (67, 0, held)], length: held))
        try sandbox.useLibrary("Library")
        let terminal = try browse(sandbox, options: ["--cores", "2"])
        try terminal.waitForBrowser("Library, Band/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "Band/" }
        try terminal.send("Enter")
        try terminal.waitForBrowser("Library › Band") { $0.breadcrumb == "Library › Band" && $0.selected?.name == "Chord.mid" }
        try terminal.send("Enter")
        try terminal.waitForPlayView("Chord.mid playing") { $0.name == "Chord.mid" }
        _ = try terminal.waitFor("2 cores")
        try terminal.send("q")
        try terminal.waitForBrowser("the browser again") { $0.selected?.name == "Chord.mid" }
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("P on a composer queues all its files, folders first, in natural order; b browses with the music on and v shows the player again")
    func playFolderQueuesEverythingUnderIt() throws {
        let sandbox = try makeSandbox()
        let terminal = try browse(sandbox)
        try playChopinFolder(on: terminal)
        let count = Self.chopinInOrder.count
        try terminal.waitForPlayView("Nocturne No.1.mid, 1 of \(count)") { $0.name == "Nocturne No.1.mid" && $0.place == "1 of \(count)" }

        // Back to the browser: the music goes on, and the status line says so.
        try terminal.send("b")
        let browsing = try terminal.waitForBrowser("the browser with the music playing on") {
            $0.breadcrumb == "Library" && $0.status.contains("Nocturne No.1.mid") && $0.status.contains("(1 of \(count))")
        }
        #expect(browsing.selected?.name == "Chopin/", "\(browsing)")
        #expect(try server.sinkInputs().count == 1, "no stream plays while browsing")
        try terminal.send("v")
        try terminal.waitForPlayView("the player again") { $0.name == "Nocturne No.1.mid" && $0.place == "1 of \(count)" }

        for (index, path) in Self.chopinInOrder.enumerated().dropFirst() {
            try terminal.send("n")
            let name = (path as NSString).lastPathComponent
            let shown = try terminal.waitForPlayView("\(name), \(index + 1) of \(count)") {
                $0.name == name && $0.place == "\(index + 1) of \(count)"
            }
            let folders = (path as NSString).deletingLastPathComponent.split(separator: "/").suffix(2)
            #expect(shown.folders == (folders.count == 2 ? folders.joined(separator: " / ") : "Library / " + folders.joined()), "\(shown)")
        }
        try terminal.send("q")
        try terminal.waitForBrowser("the browser after q") { $0.status == "Stopped." }
        let saved = try sandbox.savedState()
        #expect(saved.queue == Self.chopinInOrder, "\(saved)")
        #expect(saved.place == count - 1, "\(saved)")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("q in the browser while music plays under it stops the music, and the resume state has where it stopped")
    func leavingTheBrowserSavesWhereTheMusicWas() throws {
        let sandbox = try makeSandbox()
        let terminal = try browse(sandbox)
        try playChopinFolder(on: terminal)
        try terminal.waitForPlayView("Nocturne No.1.mid") { $0.name == "Nocturne No.1.mid" }
        try terminal.send("b")
        // Past the second of the once-a-second saves, so that one made on the way out shows.
        let browsing = try terminal.waitForBrowser("the music 2.5 s in, under the browser") { ($0.statusSeconds ?? 0) >= 2.5 }
        let shown = try #require(browsing.statusSeconds)
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
        #expect(try server.sinkInputs().isEmpty, "a stream is left after leaving the browser")
        let saved = try sandbox.savedState()
        #expect(saved.queue == Self.chopinInOrder && saved.place == 0, "\(saved)")
        // Saved on the way out: at least where the status line last said the music was (to a tenth).
        #expect(saved.position.seconds >= shown - 0.05, "the status line showed \(shown) s before q, the state says \(saved.position.seconds) s")
    }

    @Test(
        "the library taken away while music plays under the browser (a disk unmounted): the folder shown says so, the music goes on, and the listing comes back with its selection when the library does"
    )
    func libraryGoneAndBack() throws {
        let sandbox = try makeSandbox()
        let terminal = try browse(sandbox)
        try playChopinFolder(on: terminal)
        try terminal.waitForPlayView("Nocturne No.1.mid") { $0.name == "Nocturne No.1.mid" }
        try terminal.send("b")
        try terminal.waitForBrowser("the browser, Chopin/ selected") { $0.selected?.name == "Chopin/" }
        try terminal.send("Enter")
        try terminal.send("Down")
        try terminal.waitForBrowser("Library › Chopin, Op.10 Etudes/ selected") {
            $0.breadcrumb == "Library › Chopin" && $0.selected?.name == "Op.10 Etudes/"
        }

        let library = sandbox.work + "/Library"
        #expect(rename(library, library + ".unmounted") == 0, "could not move the library away: \(String(cString: strerror(errno)))")
        let lost = try terminal.waitForBrowser("the folder shown reported gone") { screen in
            screen.lines.contains { $0.hasPrefix("Cannot open this folder:") }
        }
        #expect(lost.entries.allSatisfy { !$0.isFile }, "files still listed in a folder that is gone: \(lost)")
        // What was loaded plays on: the time under the browser moves.
        let before = try #require(lost.statusSeconds, "\(lost)")
        try terminal.waitForBrowser("the music going on without its library") { ($0.statusSeconds ?? 0) >= before + 1 }

        #expect(rename(library + ".unmounted", library) == 0, "could not move the library back: \(String(cString: strerror(errno)))")
        let back = try terminal.waitForBrowser("the listing back") { $0.breadcrumb == "Library › Chopin" && $0.entries.count == 3 }
        #expect(back.selected?.name == "Op.10 Etudes/", "the selection before the loss is not kept: \(back)")
        #expect(!back.lines.contains { $0.hasPrefix("Cannot open this folder:") }, "\(back)")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    // MARK: Wide characters

    /// Names whose width in characters is not their width on screen: CJK (two columns each), a
    /// combining mark (none), an emoji (two), and one too long for the screen.
    static let wideNames = [
        "交響曲第9番 ニ短調 作品125「合唱付き」.mid",
        "第5番 ハ短調 作品67 運命.mid",
        "Fu\u{308}r Elise 🎹.mid",
        "Symphony No.7 Op.92.mid",
        "交響曲第6番 ヘ長調 作品68「田園」第1楽章 田舎に着いたときの愉快な感情の目覚め.mid",
    ]

    @Test(
        "CJK names, combining marks and emoji line up: the right-hand column ends at one column on every line, nothing wraps or is cut inside a character, at 80, 40 and 20 columns"
    )
    func wideCharactersLineUp() throws {
        setlocale(LC_ALL, "C.UTF-8")
        let sandbox = try makeSandbox()
        for (index, name) in Self.wideNames.enumerated() {
            try sandbox.write("Library/ベートーヴェン/交響曲/" + name, Songs.heldNote(UInt8(60 + index), seconds: 30 + 40 * index))
        }
        try FileManager.default.createDirectory(atPath: sandbox.path("Library/ベートーヴェン/交響曲/断片"), withIntermediateDirectories: true)
        try sandbox.write("Library/ベートーヴェン/交響曲/断片/スケッチ.mid", Songs.heldNote(60, seconds: 5))

        let terminal = try browse(sandbox)
        try terminal.waitForBrowser("Library") { $0.breadcrumb == "Library" }
        // The last folder (kana after Latin letters), opened with Enter. (Typing after / searches
        // the library, which the browser indexes meanwhile: see searchBeforeIndexing.)
        try terminal.send("End")
        try terminal.waitForBrowser("ベートーヴェン/ selected") { $0.selected?.name == "ベートーヴェン/" }
        try terminal.send("Enter")
        try terminal.waitForBrowser("Library › ベートーヴェン") { $0.breadcrumb == "Library › ベートーヴェン" && $0.selected?.name == "交響曲/" }
        try terminal.send("Enter")

        // The names in the listing's order, as read at 80 columns, where all but the long one fit.
        var order: [String] = []
        for columns in [80, 40, 20] {
            if columns != 80 { try terminal.resize(columns: columns, rows: 24) }
            // Drawn for this width, each file's duration and track count known.
            let screen = try terminal.waitForBrowser("the folder drawn at \(columns) columns with every file's details") {
                $0.lines.count > 1 && $0.lines[1] == String(repeating: "─", count: columns)
                    && $0.entries.filter(\.hasDetails).count == Self.wideNames.count
            }
            let attributed = try terminal.screen(attributes: true)
            for line in screen.lines {
                #expect(Self.cells(line) <= columns, "at \(columns) columns a line is \(Self.cells(line)) wide: “\(line)”")
            }
            #expect(screen.breadcrumb.hasSuffix("交響曲"), "\(screen)")
            // Every entry once, on a line of its own: nothing wrapped onto the next line.
            #expect(screen.entries.count == Self.wideNames.count + 1, "\(screen)")
            #expect(screen.entries.first?.name == "断片/", "\(screen)")
            let files = screen.entries.filter(\.isFile)
            // The right-hand column ends at the same column on every file's line.
            let ends = files.map { Self.cells($0.line) }
            #expect(Set(ends).count == 1, "at \(columns) columns the lines end at columns \(ends): \(screen)")
            if order.isEmpty {
                order = files.map { file in Self.wideNames.first { Self.isShown($0, as: file.name) } ?? "(not a name: \(file.name))" }
                #expect(Set(order) == Set(Self.wideNames), "\(screen)")
                let long = try #require(Self.wideNames.last)
                for (file, name) in zip(files, order) {
                    if name == long {
                        #expect(file.name.hasSuffix("…"), "the name too long for 80 columns is not cut: \(screen)")
                    } else {
                        #expect(file.name == name, "“\(name)” fits in 80 columns but shows as “\(file.name)”")
                    }
                }
            }
            // Each name whole, or cut after a whole character.
            #expect(files.count == order.count, "\(screen)")
            for (file, name) in zip(files, order) {
                #expect(Self.isShown(name, as: file.name), "at \(columns) columns “\(name)” shows as “\(file.name)”")
            }
            // The selected line is still one line in reverse video.
            #expect(attributed.filter { $0.contains("\u{1B}[7m") }.count == 1, "\(attributed)")
        }
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    /// Whether `shown` is `name`, or `name` cut after a whole character and ended with “…”.
    static func isShown(_ name: String, as shown: String) -> Bool {
        if shown == name { return true }
        guard shown.hasSuffix("…") else { return false }
        let kept = Array(shown.dropLast())
        // Characters, not bytes or scalars: “u” is not a prefix of “ü” written u + U+0308.
        return !kept.isEmpty && Array(name).starts(with: kept)
    }

    /// The terminal cells `text` takes, as the C library counts them (in a UTF-8 locale).
    static func cells(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + max(0, Int(characterWidth(wchar_t(bitPattern: $1.value)))) }
    }

    /// `wcwidth(3)`, which Swift's Glibc module leaves out (it needs _XOPEN_SOURCE), looked up by name.
    private static let characterWidth = unsafeBitCast(dlsym(nil, "wcwidth"), to: (@convention(c) (wchar_t) -> Int32).self)
}

// MARK: - Reading the screen

/// The browser as the terminal shows it: the breadcrumb, the listing (the selected line in
/// reverse video, the last played file marked `▶ `), the status line and the keys.
struct BrowserScreen: CustomStringConvertible {
    struct Entry {
        /// The line as shown.
        var line: String
        var isMarked: Bool
        /// The name (a folder's with its `/`), as shown: cut with `…` when it does not fit.
        var name: String
        /// A file's duration and track count, or `…` while they are worked out.
        var details: String?
        var isFile: Bool { details != nil }
        /// A file whose duration and track count show.
        var hasDetails: Bool { details?.hasSuffix(" tr") == true }
    }

    /// Every line, as text.
    let lines: [String]
    let entries: [Entry]
    /// The entry in reverse video.
    let selected: Entry?

    init(attributed screen: [String]) {
        // tmux ends the last line with a line feed too.
        let attributed = screen.last == "" ? Array(screen.dropLast()) : screen
        let plain = attributed.map(Self.plain)
        lines = plain
        var entries: [Entry] = []
        var selected: Entry?
        // Between the breadcrumb and its rule, and the status and keys lines.
        for index in plain.indices.dropFirst(2).dropLast(2) where !plain[index].isEmpty {
            let entry = Self.entry(plain[index])
            entries.append(entry)
            if attributed[index].contains("\u{1B}[7m") { selected = entry }
        }
        self.entries = entries
        self.selected = selected
    }

    var breadcrumb: String { lines.first ?? "" }
    /// The line above the keys.
    var status: String { lines.count >= 2 ? lines[lines.count - 2] : "" }
    /// Where the music playing under the browser is, from the status line ("▶ name  0:02.8 / 0:30.0 …").
    var statusSeconds: Double? {
        guard let match = status.firstMatch(of: /\s(\d+):(\d\d\.\d) \/\s/), let minutes = Double(match.1), let seconds = Double(match.2) else {
            return nil
        }
        return minutes * 60 + seconds
    }

    /// Whether this is the browser (its keys line last), not the play view.
    var isBrowser: Bool { lines.last?.hasPrefix("↑↓ move") == true }

    var description: String { "the screen:\n" + lines.joined(separator: "\n") }

    private static func entry(_ line: String) -> Entry {
        let isMarked = line.hasPrefix("▶ ")
        let rest = line.hasPrefix("▶ ") || line.hasPrefix("  ") ? String(line.dropFirst(2)) : line
        // "  1:05.0  1 tr" at the end of a file's line (right-aligned in columns); "  …" until they are known.
        if let match = rest.firstMatch(of: /^(.*?) *  (\d+:\d\d\.\d +\d+ tr|…|unreadable)$/) {
            return Entry(line: line, isMarked: isMarked, name: String(match.1), details: String(match.2))
        }
        return Entry(line: line, isMarked: isMarked, name: rest.trimmingCharacters(in: .whitespaces), details: nil)
    }

    /// The text without its escape sequences (colours, reverse video).
    static func plain(_ line: String) -> String {
        line.replacing(/\x1B\[[0-9;]*m/, with: "")
    }
}

/// The play view as the terminal shows it.
struct PlayScreen: CustomStringConvertible {
    let lines: [String]
    /// The file's name.
    var name: String?
    /// The song's title, shown before the file's name when it has one: "▶ Title  (name.mid)".
    var title: String?
    var folders: String?
    /// "1 of 5".
    var place: String?
    var elapsedSeconds: Double = 0

    init(_ lines: [String]) {
        self.lines = lines
        // Four lines: ▶ name; its folders and its place in the queue; a bar and the time; the keys.
        guard let first = lines.firstIndex(where: { $0.hasPrefix("▶ ") || $0.hasPrefix("❚❚ ") }), first + 3 < lines.count,
            lines[first + 3].contains("b browse")
        else { return }
        let shown = String(lines[first].drop { $0 != " " }.dropFirst())
        if let match = shown.wholeMatch(of: /(.+)  \((.+)\)/) {
            (title, name) = (String(match.1), String(match.2))
        } else {
            name = shown
        }
        if let match = lines[first + 1].firstMatch(of: /^(.*?) +(\d+ of \d+)$/) {
            folders = String(match.1)
            place = String(match.2)
        }
        if let match = lines[first + 2].firstMatch(of: /\] (\d+):(\d\d\.\d) \//), let minutes = Double(match.1), let seconds = Double(match.2) {
            elapsedSeconds = minutes * 60 + seconds
        }
    }

    var description: String { "the screen:\n" + lines.joined(separator: "\n") }
}

extension TmuxTerminal {
    /// The browser once `condition` holds for it (20 s at most: the machine may be busy).
    @discardableResult
    func waitForBrowser(_ description: String, until condition: (BrowserScreen) -> Bool) throws -> BrowserScreen {
        var shown: BrowserScreen?
        try waitForScreen(description, atMost: 20) { _ in
            guard let attributed = try? screen(attributes: true) else { return false }
            let parsed = BrowserScreen(attributed: attributed)
            shown = parsed
            return parsed.isBrowser && condition(parsed)
        }
        return try #require(shown)
    }

    /// The play view once `condition` holds for it.
    @discardableResult
    func waitForPlayView(_ description: String, until condition: (PlayScreen) -> Bool) throws -> PlayScreen {
        var shown: PlayScreen?
        try waitForScreen(description, atMost: 20) { lines in
            let parsed = PlayScreen(lines)
            shown = parsed
            return parsed.name != nil && condition(parsed)
        }
        return try #require(shown)
    }
}
