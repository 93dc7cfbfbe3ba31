import Foundation
import SMF
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The media keys end to end: the real smfplay, playing through a real PulseAudio server (a null
// sink) while its MPRIS service is on a private session bus, driven and watched by the real
// clients a desktop user has: playerctl, busctl, dbus-send and dbus-monitor.
//
// Each change is polled for with a deadline (2 s, twenty times what a call may take): the time it
// took is printed, never asserted, since a busy 2-core machine decides it more than smfplay does.

@Suite("smfplay play: media keys (MPRIS) on a private session bus", .serialized, .sharedPulseAudioServer)
struct MediaKeysCommandTests {
    static let options = PlayCommandTests.clean
    /// How long a call may take to show before the test fails.
    static let deadline = 2.0

    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    /// A library laid out as `<Composer>/<Category>/<piece>.mid`, with a 30-second staircase whose
    /// first track is named (the title), and a second song after it.
    private func library() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("Bach/Preludes/stairs.mid", Songs.staircase(seconds: 30, firstNote: 60, title: "Stairs in C"))
        try sandbox.write("Bach/Preludes/second.mid", Songs.staircase(seconds: 30, firstNote: 64))
        return sandbox
    }

    private func play(_ sandbox: Sandbox, _ files: [String], bus: PrivateSessionBus, extra: [String] = []) throws -> PlayingCommand {
        let player = try PlayingCommand(
            sandbox, ["play"] + files + Self.options + extra, server: server,
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        try #require(player.waitForLine(containing: files[0]) != nil, "smfplay did not start playing")
        return player
    }

    /// Waits for `value()` to be `expected`; prints how long it took.
    private func expectSoon(_ what: String, _ value: () throws -> String, toBe expected: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let start = Date()
        var last = ""
        let reached = try PrivateSessionBus.poll(atMost: Self.deadline) {
            last = try value()
            return last == expected
        }
        print("\(what): \(reached ? "after \(Int(Date().timeIntervalSince(start) * 1000)) ms" : "not within \(Self.deadline) s")")
        #expect(reached, "\(what): \(last), not \(expected)", sourceLocation: sourceLocation)
    }

    @Test("playerctl sees smfplay playing, with the song's title, file URL, length, folders and piano-roll art")
    func metadata() throws {
        let sandbox = try library()
        let bus = try PrivateSessionBus()
        let player = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus)
        #expect(try bus.playerctl("status") == "Playing")
        #expect(try bus.playerctl("metadata", "xesam:title") == "Stairs in C")
        #expect(try bus.playerctl("metadata", "xesam:album") == "Preludes")
        #expect(try bus.playerctl("metadata", "xesam:artist") == "Bach")
        #expect(try bus.playerctl("metadata", "mpris:length") == "30000000")
        // playerctl quotes an object path.
        #expect(try bus.playerctl("metadata", "mpris:trackid").hasPrefix("'/org/smfplay/track/"))
        // The sandbox's path has non-ASCII letters: they are percent-encoded, and decode to the file.
        let url = try bus.playerctl("metadata", "xesam:url")
        #expect(url.hasPrefix("file:///") && url.allSatisfy(\.isASCII), "\(url)")
        #expect(URL(string: url)?.path == sandbox.path("Bach/Preludes/stairs.mid"), "\(url)")
        // The thumbnail is drawn off the play loop, then the metadata changes to name it.
        var art = ""
        let hasArt = try PrivateSessionBus.poll(atMost: Self.deadline) {
            art = try bus.playerctl("metadata", "mpris:artUrl")
            return art.hasPrefix("file://")
        }
        #expect(hasArt, "no mpris:artUrl: \(art)")
        let thumbnail = URL(string: art)?.path ?? ""
        #expect(thumbnail.hasPrefix(sandbox.root + "/cache/thumbnails/normal/") && thumbnail.hasSuffix(".png"), "\(art)")
        let png = FileManager.default.contents(atPath: thumbnail) ?? Data()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(thumbnail) is not a PNG image")
        // Bytes, not a String: the chunk's CRC after the URL could decode to a combining mark,
        // which would make the URL's last letter another character and the text not found.
        #expect(png.range(of: Data(("Thumb::URI\0" + url).utf8)) != nil, "the thumbnail does not name its file as the thumbnail standard asks")
        #expect(try bus.property("Identity", interface: "org.mpris.MediaPlayer2") == "s \"smfplay\"")
        #expect(try bus.property("DesktopEntry", interface: "org.mpris.MediaPlayer2") == "s \"smfplay\"")
        #expect(
            try bus.property("SupportedMimeTypes", interface: "org.mpris.MediaPlayer2")
                == "as 9 \"audio/midi\" \"audio/x-midi\" \"audio/x-rmid\" \"audio/x-midi2-clip\" \"audio/x-mus\" \"audio/x-xmi\" \"audio/x-hmp\" \"audio/x-hmi\" \"audio/x-recomposer\""
        )
        #expect(try bus.property("LoopStatus") == "s \"None\"")
        #expect(try bus.property("Rate") == "d 1")
        try quit(player)
    }

    @Test("an RMID file: its INFO title, artist, album, genre and date, and its own cover (a JPEG, copied out of it) as the art")
    func rmidMetadataAndCover() throws {
        let sandbox = try Sandbox()
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 301)
        let writer = RMIDWriter(
            texts: [.title: "Nocturne", .artist: "Chopin", .album: "Nocturnes", .genre: "Classical", .date: "1835"].mapValues { Array($0.utf8) },
            textEncoding: "utf-8", picture: jpeg)
        try sandbox.write("Bach/Preludes/n.rmi", writer.encode(song: Songs.staircase(seconds: 30, firstNote: 60, title: "Track title")))
        let bus = try PrivateSessionBus()
        let player = try play(sandbox, ["Bach/Preludes/n.rmi"], bus: bus)
        #expect(try bus.playerctl("metadata", "xesam:title") == "Nocturne")
        #expect(try bus.playerctl("metadata", "xesam:artist") == "Chopin")
        #expect(try bus.playerctl("metadata", "xesam:album") == "Nocturnes")
        #expect(try bus.playerctl("metadata", "xesam:genre") == "Classical")
        #expect(try bus.playerctl("metadata", "xesam:contentCreated") == "1835")
        var art = ""
        let hasArt = try PrivateSessionBus.poll(atMost: Self.deadline) {
            art = try bus.playerctl("metadata", "mpris:artUrl")
            return art.hasPrefix("file://")
        }
        #expect(hasArt, "no mpris:artUrl: \(art)")
        let cover = URL(string: art)?.path ?? ""
        #expect(cover.hasPrefix(sandbox.root + "/cache/smfplay/covers/") && cover.hasSuffix(".jpg"), "\(art)")
        #expect(FileManager.default.contents(atPath: cover).map { [UInt8]($0) } == jpeg, "\(cover) is not the file's picture")
        try quit(player)
    }

    /// Ends a player with `q`, as a person would: it must exit cleanly.
    private func quit(_ player: PlayingCommand, sourceLocation: SourceLocation = #_sourceLocation) throws {
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil && !exit.timedOut, "\(player.report(exit))", sourceLocation: sourceLocation)
    }

    @Test("pause, play, SetPosition, Seek and next take effect, and are signalled (PropertiesChanged, Seeked)")
    func controls() throws {
        let sandbox = try library()
        let bus = try PrivateSessionBus()
        let signals = sandbox.path("signals.txt")
        try bus.monitorSignals(into: signals)
        let player = try play(sandbox, ["Bach/Preludes/stairs.mid", "Bach/Preludes/second.mid"], bus: bus)

        _ = try bus.playerctl("pause")
        try expectSoon("pause", { try bus.playerctl("status") }, toBe: "Paused")
        _ = try bus.playerctl("play")
        try expectSoon("play", { try bus.playerctl("status") }, toBe: "Playing")

        // SetPosition to 10 s (playerctl names the current track), then Seek 5 s further.
        _ = try bus.playerctl("position", "10")
        try expectSoon("set position", { (Double(try bus.playerctl("position")) ?? 0) >= 10 ? "≥ 10 s" : "" }, toBe: "≥ 10 s")
        _ = try bus.playerctl("position", "5+")
        try expectSoon("seek", { (Double(try bus.playerctl("position")) ?? 0) >= 15 ? "≥ 15 s" : "" }, toBe: "≥ 15 s")

        // A SetPosition for another track id is stale: ignored, and the music goes on.
        #expect(try bus.call("org.mpris.MediaPlayer2.Player.SetPosition", "objpath:/org/smfplay/track/999", "int64:0") == nil)
        player.sleep(seconds: 0.3)
        let position = Double(try bus.playerctl("position")) ?? 0
        #expect(position >= 15, "a stale SetPosition moved the song to \(position) s")
        #expect(try bus.playerctl("status") == "Playing")

        let firstTrack = try bus.playerctl("metadata", "mpris:trackid")
        #expect(try bus.property("CanGoNext") == "b true")
        _ = try bus.playerctl("next")
        try expectSoon("next", { try bus.playerctl("metadata", "xesam:url").hasSuffix("/second.mid") ? "second" : "" }, toBe: "second")
        #expect(try bus.playerctl("metadata", "mpris:trackid") != firstTrack)
        #expect(player.waitForLine(containing: "playing 2/2") != nil, "smfplay did not announce the second file")
        // The last song, the queue not repeated: Next would do nothing, and an applet is told so.
        try expectSoon("CanGoNext on the last song", { try bus.property("CanGoNext") }, toBe: "b false")

        // What a desktop widget was told, as it happened.
        let seen = { (try? String(contentsOfFile: signals, encoding: .utf8)) ?? "" }
        _ = PrivateSessionBus.poll(atMost: Self.deadline) { seen().contains("second.mid") }
        let log = seen()
        #expect(log.contains("member=PropertiesChanged"), "no PropertiesChanged: \(log)")
        #expect(log.contains("\"Paused\""), "no PlaybackStatus Paused signalled: \(log)")
        #expect(log.contains("member=Seeked"), "no Seeked signalled: \(log)")
        #expect(log.contains("\"Metadata\"") && log.contains("second.mid"), "the second song's metadata was not signalled: \(log)")
        try quit(player)
        #expect(player.problems.isEmpty, "\(player.stderr)")
    }

    @Test(
        "the media keys in the sound: Pause is silence within 0.2 s, Play sounds again; SetPosition 10 s and Seek +5 s go on from where they say, within 0.3 s either way"
    )
    func controlsInTheSound() throws {
        let sandbox = try library()
        let bus = try PrivateSessionBus()
        let take = try Take(server)
        let player = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus)
        // Each call's moment is the sink's frame when playerctl has its answer.
        player.sleep(seconds: 0.5)
        _ = try bus.playerctl("pause")
        let paused = take.framesSoFar
        player.sleep(seconds: 0.7)
        _ = try bus.playerctl("play")
        let resumed = take.framesSoFar
        player.sleep(seconds: 0.7)
        _ = try bus.playerctl("position", "10.5")
        let set = take.framesSoFar
        player.sleep(seconds: 1.2)
        _ = try bus.playerctl("position", "5+")
        let sought = take.framesSoFar
        player.sleep(seconds: 1.2)
        try quit(player)
        let (sound, lost) = try take.finish()

        let quiet = sound.peak(paused + Take.frames(0.2)..<resumed)
        #expect(quiet < 5e-3, "still sounding 0.2 s after Pause: peak \(quiet)")
        let back = sound.peak(resumed + Take.frames(0.2)..<resumed + Take.frames(0.5))
        #expect(back > 5e-3, "silent 0.2 s after Play: peak \(back)")

        // Where the song goes on after each call, as the key seeks are checked (expectSeeksLand):
        // the note heard 0.15–0.35 s after it, and when the next step begins, both in the sound.
        let heardAtSeek = 10.5 + sound.soundingSeconds(in: set..<sought)
        for (frame, target, what) in [(set, 10.5, "SetPosition 10.5 s"), (sought, heardAtSeek + 5, "Seek +5 s")] {
            let expected = 60 + Int(target + 0.2)
            let heardNote = sound.note(in: frame + Take.frames(0.15)..<frame + Take.frames(0.35))
            #expect(heardNote == expected, "\(what): note \(heardNote.map(String.init) ?? "none"), expected \(expected) (\(Take.format(target)) s)")
            let change = sound.onset(of: expected + 1, from: frame + Take.frames(0.05))
            let landed = change.map { Double(expected - 60 + 1) - sound.soundingSeconds(in: frame..<$0) }
            #expect(
                landed.map { abs($0 - target) <= 0.3 + lost } == true,
                "\(what): went on from \(landed.map(Take.format) ?? "?") s, not \(Take.format(target)) s")
        }
    }

    @Test("LoopStatus, Shuffle and Rate are set; OpenUri plays a file; bad calls get errors and the music goes on; Quit ends smfplay")
    func settingsOpeningAndErrors() throws {
        let sandbox = try library()
        try sandbox.write("Bach/Preludes/notes.txt", text: "not music")
        try sandbox.write("later.mid", Songs.staircase(seconds: 30, firstNote: 67))
        let bus = try PrivateSessionBus()
        let player = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus)

        _ = try bus.playerctl("loop", "Playlist")
        try expectSoon("loop status", { try bus.playerctl("loop") }, toBe: "Playlist")
        _ = try bus.playerctl("shuffle", "On")
        try expectSoon("shuffle", { try bus.playerctl("shuffle") }, toBe: "On")
        _ = try bus.playerctl("shuffle", "Off")
        try expectSoon("shuffle", { try bus.playerctl("shuffle") }, toBe: "Off")
        #expect(try bus.call("org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate", "variant:double:2") == nil)
        try expectSoon("rate", { try bus.property("Rate") }, toBe: "d 2")

        // Refused, each with an error a person can read.
        let missing = try bus.call("org.mpris.MediaPlayer2.Player.OpenUri", "string:file:///nowhere/song.mid")
        #expect(
            missing?.contains("org.mpris.MediaPlayer2.smfplay.Error.NoSuchFile") == true
                && missing?.contains("/nowhere/song.mid: no such file") == true, "\(missing ?? "no error")")
        let text = try bus.call(
            "org.mpris.MediaPlayer2.Player.OpenUri", "string:" + URL(fileURLWithPath: sandbox.path("Bach/Preludes/notes.txt")).absoluteString)
        #expect(text?.contains("org.mpris.MediaPlayer2.smfplay.Error.NotAMIDIFile") == true, "\(text ?? "no error")")
        let remote = try bus.call("org.mpris.MediaPlayer2.Player.OpenUri", "string:https://example.com/song.mid")
        #expect(remote?.contains("NotAFileURI") == true, "\(remote ?? "no error")")
        let wrongType = try bus.call("org.mpris.MediaPlayer2.Player.Seek", "string:ten")
        #expect(wrongType?.contains("InvalidArgs") == true, "\(wrongType ?? "no error")")
        let badRate = try bus.call("org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate", "variant:double:9")
        #expect(badRate?.contains("RateOutOfRange") == true, "\(badRate ?? "no error")")
        #expect(try bus.playerctl("status") == "Playing")
        #expect(try bus.playerctl("metadata", "xesam:title") == "Stairs in C")

        // A good file joins the queue and plays at once.
        #expect(
            try bus.call("org.mpris.MediaPlayer2.Player.OpenUri", "string:" + URL(fileURLWithPath: sandbox.path("later.mid")).absoluteString) == nil)
        try expectSoon("open", { try bus.playerctl("metadata", "xesam:url").hasSuffix("/later.mid") ? "later" : "" }, toBe: "later")
        #expect(player.waitForLine(containing: "playing 2/2: ") != nil, "\(player.stdout)")

        #expect(try bus.call("org.mpris.MediaPlayer2.Quit") == nil)
        let exit = player.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil && !exit.timedOut, "\(player.report(exit))")
        #expect(player.problems.isEmpty, "\(player.report(exit))")
    }

    @Test("a second smfplay takes org.mpris.MediaPlayer2.smfplay.instance<pid>; --no-mpris and mpris = false take no name")
    func names() throws {
        let sandbox = try library()
        let bus = try PrivateSessionBus()
        let first = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus)
        let second = try play(sandbox, ["Bach/Preludes/second.mid"], bus: bus)
        let names = try bus.names().filter { $0.hasPrefix("org.mpris.MediaPlayer2.smfplay") }
        #expect(
            names.count == 2 && names.contains("org.mpris.MediaPlayer2.smfplay")
                && names.contains {
                    $0.hasPrefix("org.mpris.MediaPlayer2.smfplay.instance")
                        && Int($0.dropFirst("org.mpris.MediaPlayer2.smfplay.instance".count)) != nil
                },
            "\(names)")
        try quit(second)
        try quit(first)

        let off = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus, extra: ["--no-mpris"])
        #expect(try !bus.names().contains { $0.hasPrefix("org.mpris.MediaPlayer2.smfplay") }, "--no-mpris still took a name")
        try quit(off)

        try sandbox.writeUserConfiguration("[audio]\nmpris = false\n")
        let configuredOff = try play(sandbox, ["Bach/Preludes/stairs.mid"], bus: bus)
        #expect(try !bus.names().contains { $0.hasPrefix("org.mpris.MediaPlayer2.smfplay") }, "mpris = false still took a name")
        try quit(configuredOff)
    }

    @Test("without a session bus (none set, or one that is not there) the music plays, and --verbose says so in one line")
    func noSessionBus() throws {
        let sandbox = try Sandbox()
        try sandbox.write("short.mid", Fixtures.song(beats: 2))
        let environment = ["PULSE_SERVER": server.address]
        for address in [nil, "unix:path=" + sandbox.path("no-bus-here")] {
            let run = try sandbox.run(
                ["play", "short.mid"] + Self.options,
                environment: environment.merging(address.map { ["DBUS_SESSION_BUS_ADDRESS": $0] } ?? [:]) { $1 })
            #expect(run.succeeded, "\(run)")
            #expect(run.stdoutLines == ["playing 1/1: short.mid (0:01.0)"], "\(run)")
            let said = run.stderrLines.filter { $0.contains("media keys (MPRIS) are off") }
            #expect(said.count == 1 && said[0].contains("no D-Bus session bus"), "\(run)")
            let quiet = try sandbox.run(
                ["play", "short.mid", "--soundfont", Fixtures.soundFont, "--no-reverb", "--no-chorus"],
                environment: environment.merging(address.map { ["DBUS_SESSION_BUS_ADDRESS": $0] } ?? [:]) { $1 })
            #expect(quiet.succeeded && quiet.stderr.isEmpty, "\(quiet)")
        }
    }

    /// A session bus that will not serve smfplay: the music plays, and --verbose says why the media
    /// keys are off, once.
    /// - A bus whose policy refuses the MPRIS name: smfplay crashed (SIGBUS) as it let go of what it
    ///   had registered (in a release build, whose optimizer ended the tables' lifetime early; this
    ///   debug build keeps them to the end of the scope, and did not crash).
    /// - A bus that takes the connection and never answers (a stopped or hung daemon): it held the
    ///   player for sd-bus's 90 s, deaf to Ctrl-C; now it waits a second.
    @Test(
        "a session bus that refuses the name, or does not answer: the music plays, and --verbose says why in one line",
        arguments: [true, false])
    func unhelpfulSessionBus(refusing: Bool) throws {
        let sandbox = try Sandbox()
        try sandbox.write("short.mid", Fixtures.song(beats: 2))
        let bus = try PrivateSessionBus(refusingMPRISNames: refusing)
        if !refusing { bus.stopAnswering() }
        let run = try sandbox.run(
            ["play", "short.mid"] + Self.options, environment: ["PULSE_SERVER": server.address, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(run.succeeded, "\(run)")
        #expect(run.stdoutLines == ["playing 1/1: short.mid (0:01.0)"], "\(run)")
        let said = run.stderrLines.filter { $0.contains("media keys (MPRIS) are off") }
        let reason = refusing ? "the session bus refused the name org.mpris.MediaPlayer2.smfplay" : "the session bus did not answer within 1 s"
        #expect(said.count == 1 && said[0].contains(reason), "\(run)")
    }

    /// `browse` offers the media keys as `play` does, from the first file it plays; they work in
    /// the play view and while the music plays under the browser, and go with it.
    @Test(
        "browse: playerctl sees the file played from the browser, pauses it, skips to the next and seeks, in the play view and under the browser; the name goes when the browser ends"
    )
    func browse() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Library/Bach/Preludes/Prelude 1.mid", Songs.staircase(seconds: 30, firstNote: 60, title: "Stairs in C"))
        try sandbox.write("Library/Bach/Preludes/Prelude 2.mid", Songs.staircase(seconds: 30, firstNote: 64, title: "Stairs in E"))
        try sandbox.useLibrary("Library")
        let bus = try PrivateSessionBus()
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let terminal = try TmuxTerminal(
            smfplay.path, arguments: ["browse"] + PlayCommandTests.synthesis,
            environment: sandbox.environment.merging([
                "PULSE_SERVER": server.address,
                "DBUS_SESSION_BUS_ADDRESS": bus.address,
            ]) { $1 },
            workingDirectory: sandbox.work, columns: 80, rows: 24)
        try terminal.waitForBrowser("Library, Bach/ selected") { $0.breadcrumb == "Library" && $0.selected?.name == "Bach/" }
        try terminal.send("Enter")
        try terminal.waitForBrowser("Library › Bach") { $0.selected?.name == "Preludes/" }
        try terminal.send("Enter")
        try terminal.waitForBrowser("Library › Bach › Preludes") { $0.selected?.name == "Prelude 1.mid" }
        try terminal.send("Enter")
        // The play view shows the song's title as the media keys do, its file's name after it.
        try terminal.waitForPlayView("Stairs in C (Prelude 1.mid) playing") { $0.name == "Prelude 1.mid" && $0.title == "Stairs in C" }

        try expectSoon("status once the browser plays", { try bus.playerctl("status") }, toBe: "Playing")
        #expect(try bus.playerctl("metadata", "xesam:title") == "Stairs in C")
        #expect(try bus.playerctl("metadata", "xesam:album") == "Preludes")
        #expect(try bus.playerctl("metadata", "xesam:artist") == "Bach")
        // In the play view.
        _ = try bus.playerctl("pause")
        try expectSoon("status after pause", { try bus.playerctl("status") }, toBe: "Paused")
        _ = try terminal.waitFor("❚❚ Stairs in C  (Prelude 1.mid)")
        _ = try bus.playerctl("play")
        try expectSoon("status after play", { try bus.playerctl("status") }, toBe: "Playing")
        _ = try bus.playerctl("next")
        try terminal.waitForPlayView("Prelude 2.mid playing, 2 of 2") { $0.name == "Prelude 2.mid" && $0.place == "2 of 2" }
        try expectSoon("title after next", { try bus.playerctl("metadata", "xesam:title") }, toBe: "Stairs in E")

        // Under the browser.
        try terminal.send("b")
        try terminal.waitForBrowser("the browser, the music on under it") { $0.isBrowser && $0.status.hasPrefix("▶ Stairs in E  (Prelude 2.mid)") }
        // Back to the start: the status line can only show it by a seek.
        try terminal.waitForBrowser("3 s in on the status line") { ($0.statusSeconds ?? 0) >= 3 }
        _ = try bus.playerctl("position", "0")
        try terminal.waitForBrowser("back at the start on the status line") { ($0.statusSeconds ?? 3) < 2.5 }
        _ = try bus.playerctl("pause")
        try terminal.waitForBrowser("paused on the status line") { $0.status.hasPrefix("❚❚ Stairs in E  (Prelude 2.mid)") }
        try expectSoon("status after pause, under the browser", { try bus.playerctl("status") }, toBe: "Paused")

        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
        let gone = try PrivateSessionBus.poll(atMost: Self.deadline) { try !bus.names().contains { $0.hasPrefix("org.mpris.MediaPlayer2.smfplay") } }
        #expect(gone, "the name stays on the bus after the browser ended: \((try? bus.names()) ?? [])")
    }
}
