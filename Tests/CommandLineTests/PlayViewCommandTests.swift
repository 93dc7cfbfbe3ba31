import Foundation
import SMF
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The play view's lyrics and channel keys against what reaches a real PulseAudio server: the
/// lyric line on a real terminal (tmux) changes when its note is heard, and a key mutes a channel,
/// both measured on the null sink's monitor (see `PlayCommandTests` for how recordings are read).
///
/// Serialized, on the play tests' kind of server: the player runs in real time.
@Suite("smfplay play: lyrics and channels as heard", .serialized, .sharedPulseAudioServer)
struct PlayViewCommandTests {
    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
    }

    /// Ocarina notes of a second each (E5, A5, D6, G5), each with a lyric event that starts a line
    /// of its own with one word, as bytes (UTF-8, or Shift-JIS for the Japanese file).
    static func singingSteps(_ words: [[UInt8]]) -> [UInt8] {
        let notes: [UInt8] = [76, 81, 86, 79]
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        track.append(.programChange(channel: 0, program: Songs.ocarina), atTick: 0)
        for (index, note) in notes.enumerated() {
            let tick = UInt32(index * Songs.ticksPerSecond)
            if index > 0 { track.append(.noteOff(channel: 0, note: notes[index - 1], velocity: 0), atTick: tick) }
            track.append(.meta(.text(.lyric, Array("/".utf8) + words[index])), atTick: tick)
            track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: tick)
        }
        track.append(.noteOff(channel: 0, note: notes[3], velocity: 0), atTick: UInt32(4 * Songs.ticksPerSecond))
        track.append(.meta(.endOfTrack), atTick: UInt32(4 * Songs.ticksPerSecond))
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    static let english = (words: ["one", "two", "three", "four"], bytes: ["one", "two", "three", "four"].map { Array($0.utf8) })
    // いち, に, さん, し in Shift-JIS.
    static let japanese = (
        words: ["いち", "に", "さん", "し"],
        bytes: [[0x82, 0xA2, 0x82, 0xBF], [0x82, 0xC9], [0x82, 0xB3, 0x82, 0xF1], [0x82, 0xB5]] as [[UInt8]]
    )

    @Test(
        "the lyric line on screen changes within 100 ms of its note being heard, in English and in Shift-JIS Japanese",
        arguments: ["english", "japanese"])
    func lyricLineFollowsTheSound(_ language: String) throws {
        let lyrics = language == "english" ? Self.english : Self.japanese
        let sandbox = try Sandbox()
        try sandbox.write("song.kar", Self.singingSteps(lyrics.bytes))
        let take = try Take(server)
        let terminal = try playView(["song.kar", "--latency", "50"], in: sandbox, columns: 120)
        // The line being sung is the row under the keys: the fifth of the view.
        func currentLine() throws -> String? {
            let screen = try terminal.screen()
            guard let title = screen.firstIndex(where: { $0.hasPrefix("▶ ") }), title + 4 < screen.count else { return nil }
            return screen[title + 4].trimmingCharacters(in: .whitespaces)
        }
        var shownAt: [String: Int] = [:]
        let deadline = Date().addingTimeInterval(15)
        while shownAt.count < 4, Date() < deadline {
            let line = try currentLine()
            let frame = take.framesSoFar
            if let line, lyrics.words.contains(line), shownAt[line] == nil { shownAt[line] = frame }
            usleep(2_000)
        }
        let status = terminal.exitStatus(waitingAtMost: 15)
        let (sound, _) = try take.finish()
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none")")
        let notes = [76, 81, 86, 79]
        for index in 1..<4 {
            let word = lyrics.words[index]
            let shown = try #require(shownAt[word], "\"\(word)\" was never the line sung: \(shownAt)")
            let heard = try #require(sound.onset(of: notes[index], from: shown - Take.frames(1)), "note \(notes[index]) was never heard")
            let difference = Take.seconds(shown - heard)
            print("\(language): \"\(word)\" shown \(Take.milliseconds(difference)) ms after its note was heard")
            #expect(abs(difference) <= 0.1, "\"\(word)\" shown \(Take.milliseconds(difference)) ms from its note's sound")
        }
    }

    @Test("a GS song's display letters and dot picture show in the play view when they are heard (1 s and 2 s in), not before")
    func moduleDisplayFollowsTheSound() throws {
        var track = Track()
        track.append(.systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]), atTick: 0)
        track.append(.programChange(channel: 0, program: Songs.ocarina), atTick: 0)
        track.append(.noteOn(channel: 0, note: 76, velocity: 100), atTick: 0)
        track.append(
            .systemExclusive(ModuleDisplayCommandTests.roland([0x10, 0x00, 0x00], Array("Welcome to my song".utf8))),
            atTick: UInt32(Songs.ticksPerSecond))
        track.append(
            .systemExclusive(
                ModuleDisplayCommandTests.roland([0x10, 0x01, 0x00], ModuleDisplayCommandTests.dotData(ModuleDisplayCommandTests.face))),
            atTick: UInt32(2 * Songs.ticksPerSecond))
        track.append(.noteOff(channel: 0, note: 76, velocity: 0), atTick: UInt32(4 * Songs.ticksPerSecond))
        track.append(.meta(.endOfTrack), atTick: UInt32(4 * Songs.ticksPerSecond))
        let sandbox = try Sandbox()
        try sandbox.write(
            "greeting.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let take = try Take(server)
        let terminal = try playView(["greeting.mid", "--latency", "50"], in: sandbox, columns: 100)
        var textAt: Int?
        var pictureAt: Int?
        let eyes = "▕ █   ██  ██   █ ▏"
        let deadline = Date().addingTimeInterval(15)
        while pictureAt == nil, Date() < deadline {
            let screen = try terminal.screen()
            let frame = take.framesSoFar
            if textAt == nil, screen.contains(where: { $0.hasPrefix("GS│ Welcome to my so") }) {
                textAt = frame
                #expect(!screen.contains(eyes), "the picture shows with the letters, a second early: \(screen)")
            }
            if screen.contains(eyes) { pictureAt = frame }
            usleep(2_000)
        }
        let status = terminal.exitStatus(waitingAtMost: 15)
        let (sound, _) = try take.finish()
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none")")
        let start = try #require(sound.spans.first { sound.peak($0) > 5e-3 }?.lowerBound, "nothing reached the sink")
        let text = try #require(textAt, "the letters never showed")
        let picture = try #require(pictureAt, "the picture never showed")
        #expect(abs(Take.seconds(text - start) - 1) <= 0.1, "the letters showed \(Take.seconds(text - start)) s after the song was first heard")
        #expect(abs(Take.seconds(picture - start) - 2) <= 0.1, "the picture showed \(Take.seconds(picture - start)) s after the song was first heard")
    }

    @Test("--seek 2:3 starts at bar 2, beat 3: 3 s into a 4/4 song at 120 bpm, the staircase's fourth step")
    func seekToABarAndBeat() throws {
        let sandbox = try Sandbox()
        try sandbox.write("steps.mid", Songs.staircase(seconds: 8, firstNote: 60))
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "steps.mid", "--seek", "2:3"] + PlayCommandTests.clean, server: server)
        #expect(player.waitForLine(containing: "steps.mid") != nil)
        player.sleep(seconds: 1)
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        let start = try #require(sound.spans.first { sound.peak($0) > 5e-3 }?.lowerBound, "nothing reached the sink")
        let first = sound.note(in: start + Take.frames(0.02)..<start + Take.frames(0.07))
        #expect(first == 63, "the first note heard is \(first.map(String.init) ?? "none"), not the fourth step's 63")
    }

    /// `smfplay play ARGUMENTS` in a terminal of `columns` × 24, without the keyboard or colours.
    func playView(_ arguments: [String], in sandbox: Sandbox, columns: Int) throws -> TmuxTerminal {
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        var environment = sandbox.environment
        environment["PULSE_SERVER"] = server.address
        environment["NO_COLOR"] = "1"
        return try TmuxTerminal(
            smfplay.path, arguments: ["play"] + arguments + ["--no-keyboard"] + PlayCommandTests.synthesis,
            environment: environment, workingDirectory: sandbox.work, columns: columns, rows: 24)
    }

    /// The time line's progress bar (its inside at least `shortestBar` long) and what follows it.
    static func timeLine(in screen: [String], shortestBar: Int) -> String? {
        screen.first { line in
            guard let bar = line.firstMatch(of: #/^\[([#.]+)\] /#) else { return false }
            return bar.1.count >= shortestBar
        }
    }

    @Test(
        "the time line keeps its bar, loop N/∞ (--loops inf) and the tempo (]) at 80 and at 40 columns; the hint line shows whole hints, [/] tempo and c channels at 80, and ends with ? help"
    )
    func timeAndHintLinesFit() throws {
        let sandbox = try Sandbox()
        // Its loop runs from loopStart at 0.5 s to loopEnd at 1.5 s.
        try sandbox.write("loop.mid", PerformanceOptionTests.song(loopMarks: ["loopEnd", "loopStart"]))
        let terminal = try playView(["loop.mid", "--loops", "inf"], in: sandbox, columns: 80)
        try terminal.waitForScreen("the second pass of the loop") { Self.timeLine(in: $0, shortestBar: 19)?.contains("loop 2/∞") == true }
        try terminal.send("]")
        let wide = try terminal.waitForScreen("the tempo beside the loop and the bar") {
            Self.timeLine(in: $0, shortestBar: 19).map { $0.contains("tempo 105%") && $0.contains("loop ") } ?? false
        }
        let hints = try #require(wide.first { $0.hasPrefix("space pause") }, "no hint line: \(wide)")
        #expect(hints.contains("[/] tempo") && hints.contains("c channels") && hints.hasSuffix("  ? help") && !hints.contains("…"), "\(hints)")
        try terminal.resize(columns: 40, rows: 24)
        let narrow = try terminal.waitForScreen("at 40 columns, the bar and the loop") {
            Self.timeLine(in: $0, shortestBar: 8).map { $0.contains("loop ") && $0.count < 40 } ?? false
        }
        let narrowHints = try #require(narrow.first { $0.hasPrefix("space pause") }, "no hint line: \(narrow)")
        #expect(narrowHints.hasSuffix("  ? help") && !narrowHints.contains("…") && narrowHints.count < 40, "\(narrowHints)")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test(
        "? shows every key of the play view, and with the channel panel open its keys too, at 40 columns; any key closes the page and does nothing else"
    )
    func helpPages() throws {
        let sandbox = try Sandbox()
        try sandbox.write("held.mid", Songs.heldNote(60, seconds: 30))
        let terminal = try playView(["held.mid"], in: sandbox, columns: 40)
        try terminal.waitFor("held.mid")
        try terminal.send("?")
        let page = try terminal.waitFor("Keys: the play view")
        for keys in ["space", "←/→", "↑/↓", "n", "p", "r", "q/Esc", "+/-", "[/]", "c", "?"] {
            #expect(page.contains { $0.hasPrefix("  \(keys) ") }, "\(keys) is not on the page: \(page)")
        }
        #expect(page.contains("Any key closes this help.") && !page.contains { $0.contains("…") }, "\(page)")
        // q closes the page; it does not quit.
        try terminal.send("q")
        try terminal.waitForScreen("the play view again") { $0.contains { $0.hasPrefix("space pause") } }
        #expect(terminal.exitStatus(waitingAtMost: 0.3) == nil, "q on the help page quit")
        try terminal.send("c")
        try terminal.waitFor("channels: ")
        try terminal.send("?")
        let panelPage = try terminal.waitFor("Keys: the channel panel")
        for keys in ["1-9/0", "Tab", "m", "s", "u", "c", "space", "[/]", "?"] {
            #expect(panelPage.contains { $0.hasPrefix("  \(keys) ") }, "\(keys) is not on the page: \(panelPage)")
        }
        try terminal.send("x")
        try terminal.waitFor("channels: ")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("n on the last song says so under the keys, and the song plays on; with --repeat all it goes round to the first")
    func nextOnTheLastSong() throws {
        let sandbox = try Sandbox()
        try sandbox.write("first.mid", Songs.heldNote(60, seconds: 30))
        try sandbox.write("last.mid", Songs.heldNote(64, seconds: 30))
        let terminal = try playView(["first.mid", "last.mid"], in: sandbox, columns: 80)
        try terminal.waitFor("1 of 2")
        try terminal.send("n")
        try terminal.waitFor("2 of 2")
        try terminal.send("n")
        try terminal.waitForScreen("the notice, the last song playing on") {
            $0.contains("n: this is the last song in the queue") && $0.contains("▶ last.mid") && $0.contains { $0.hasSuffix("2 of 2") }
        }
        #expect(terminal.exitStatus(waitingAtMost: 0.5) == nil, "n on the last song ended the player")
        // The next key takes the notice away.
        try terminal.send("]")
        try terminal.waitForScreen("the notice gone") { !$0.contains { $0.contains("last song") } }
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)

        let repeating = try playView(["first.mid", "last.mid", "--repeat", "all"], in: sandbox, columns: 80)
        try repeating.waitFor("1 of 2")
        try repeating.send("n")
        try repeating.waitFor("2 of 2")
        try repeating.send("n")
        let round = try repeating.waitForScreen("the first song again") { $0.contains("▶ first.mid") && $0.contains { $0.hasSuffix("1 of 2") } }
        #expect(!round.contains { $0.contains("last song") }, "\(round)")
        try repeating.send("q")
        #expect(repeating.exitStatus() == 0)
    }

    @Test(
        "l shows the queue, the song playing marked; ↓ and Enter play another (↑/↓ move in the list, they do not seek); l or Esc closes it, Esc without quitting"
    )
    func queueList() throws {
        let sandbox = try Sandbox()
        for (name, note) in [("first.mid", 60), ("second.mid", 62), ("third.mid", 64)] {
            try sandbox.write(name, Songs.heldNote(UInt8(note), seconds: 30))
        }
        let terminal = try playView(["first.mid", "second.mid", "third.mid"], in: sandbox, columns: 80)
        try terminal.waitFor("1 of 3")
        try terminal.send("l")
        let list = try terminal.waitFor("queue, 3 files")
        #expect(list.contains("▶ 1. first.mid") && list.contains("  2. second.mid") && list.contains("  3. third.mid"), "\(list)")
        try terminal.send("Down", "Down", "Enter")
        let jumped = try terminal.waitForScreen("the third song playing, marked in the list") {
            $0.contains("▶ third.mid") && $0.contains { $0.hasSuffix("3 of 3") } && $0.contains("▶ 3. third.mid")
        }
        #expect(jumped.contains("  1. first.mid"), "\(jumped)")
        // In the list ↑ moves the selection: the song is not sought 30 s on (to its end, the queue's).
        try terminal.send("Up")
        usleep(300_000)
        #expect(try terminal.screen().contains { $0.contains("] 0:0") }, "↑ sought in the song")
        try terminal.send("l")
        try terminal.waitForScreen("the list closed") { !$0.contains { $0.hasPrefix("queue, ") } }
        try terminal.send("l")
        try terminal.waitFor("queue, 3 files")
        try terminal.send("Escape")
        try terminal.waitForScreen("the list closed by Esc") { !$0.contains { $0.hasPrefix("queue, ") } }
        #expect(terminal.exitStatus(waitingAtMost: 0.3) == nil, "Esc in the queue list quit")
        try terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test(
        "Ctrl-Z in a shell with job control: the music pauses, the shell's screen comes back and the job is stopped; fg takes the terminal again, redrawn, the music going on, keys working"
    )
    func ctrlZStopsAndFgContinues() throws {
        let sandbox = try Sandbox()
        try sandbox.write("held.mid", Songs.heldNote(72, seconds: 30))
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        var environment = sandbox.environment
        environment["PULSE_SERVER"] = server.address
        environment["NO_COLOR"] = "1"
        environment["PS1"] = "shell$ "
        let take = try Take(server)
        // An interactive shell, which runs the player as a job it can stop and continue.
        let terminal = try TmuxTerminal(
            "/bin/bash", arguments: ["--norc", "--noprofile", "-i"], environment: environment,
            workingDirectory: sandbox.work, columns: 80, rows: 24)
        try terminal.waitFor("shell$")
        let command = ([smfplay.path, "play", "held.mid", "--no-keyboard"] + PlayCommandTests.synthesis).map { "'\($0)'" }
        try terminal.type(command.joined(separator: " "))
        try terminal.send("Enter")
        try terminal.waitForScreen("a second played") { $0.contains("▶ held.mid") && $0.contains { $0.contains("] 0:01") } }
        let stopped = take.framesSoFar
        try terminal.send("C-z")
        let shell = try terminal.waitFor("Stopped")
        #expect(!shell.contains { $0.contains("space pause") || $0.contains("▶ held.mid") }, "the play view is still on the screen: \(shell)")
        usleep(1_000_000)
        let continued = take.framesSoFar
        try terminal.type("fg")
        try terminal.send("Enter")
        let back = try terminal.waitForScreen("the play view again, the music going on") {
            $0.contains("▶ held.mid") && $0.contains { $0.hasPrefix("space pause") } && !$0.contains { $0.contains("Stopped") }
        }
        #expect(!back.contains { $0.hasPrefix("shell$") }, "the shell's lines are left on the view: \(back)")
        usleep(1_000_000)
        // Keys are read one at a time again (raw mode): q alone quits.
        try terminal.send("q")
        try terminal.waitForScreen("the shell again") { $0.contains { $0.hasPrefix("shell$") } && !$0.contains { $0.contains("space pause") } }
        try terminal.type("exit")
        try terminal.send("Enter")
        #expect(terminal.exitStatus() == 0)
        let (sound, _) = try take.finish()
        let before = sound.peak(stopped - Take.frames(0.6)..<stopped - Take.frames(0.1))
        let whileStopped = sound.peak(stopped + Take.frames(0.2)..<continued)
        let after = sound.peak(continued + Take.frames(0.6)..<continued + Take.frames(1.0))
        print("Ctrl-Z: peak \(before) before, \(whileStopped) while stopped, \(after) after fg")
        #expect(before > 5e-3 && after > 5e-3, "the music was not heard before Ctrl-Z (\(before)) or after fg (\(after))")
        #expect(whileStopped < before / 100, "the music went on while stopped: peak \(whileStopped), \(before) before")
    }

    /// Channel 1 holds C5 and channel 2 C4, both ocarinas, for 4 s.
    static func twoChannels() -> [UInt8] {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        track.append(.programChange(channel: 0, program: Songs.ocarina), atTick: 0)
        track.append(.programChange(channel: 1, program: Songs.ocarina), atTick: 0)
        track.append(.noteOn(channel: 0, note: 72, velocity: 100), atTick: 0)
        track.append(.noteOn(channel: 1, note: 60, velocity: 100), atTick: 0)
        track.append(.noteOff(channel: 0, note: 72, velocity: 0), atTick: UInt32(4 * Songs.ticksPerSecond))
        track.append(.noteOff(channel: 1, note: 60, velocity: 0), atTick: UInt32(4 * Songs.ticksPerSecond))
        track.append(.meta(.endOfTrack), atTick: UInt32(4 * Songs.ticksPerSecond))
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    @Test("c, 1, m mutes channel 1 while it plays: its note is let go at once, channel 2 plays on alone")
    func keysMuteAChannel() throws {
        let sandbox = try Sandbox()
        try sandbox.write("two.mid", Self.twoChannels())
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "two.mid"] + PlayCommandTests.clean, server: server)
        #expect(player.waitForLine(containing: "two.mid") != nil)
        let pressed = player.typeAt([(1.5, "c1m")], take: take)
        let exit = player.wait(timeLimit: 15)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        let key = try #require(pressed.first)
        let start = try #require(sound.spans.first?.lowerBound, "nothing reached the sink")
        let both = sound.medianLevel(in: start + Take.frames(0.3)..<key - Take.frames(0.1), width: Take.frames(0.02))
        let alone = sound.medianLevel(in: key + Take.frames(0.6)..<key + Take.frames(1.6), width: Take.frames(0.02))
        // Muted, channel 1's C5 is gone and channel 2's C4 sounds alone, at about its own level.
        let after = sound.note(in: key + Take.frames(0.6)..<key + Take.frames(0.7))
        #expect(after == 60, "after the keys: note \(after.map(String.init) ?? "none"), not channel 2's 60")
        #expect(alone < both * 0.85, "the level went from \(both) to \(alone): channel 1 still sounds")
        // The release starts within the output's buffer (50 ms), the key's wait (40 ms) and a window.
        let drop = try #require(
            sound.firstWindow(from: key - Take.frames(0.05), width: Take.frames(0.01)) { $0 < both * 0.9 },
            "the level never fell")
        print("mute: the level fell \(Take.milliseconds(Take.seconds(drop - key))) ms after the keys (both \(both), alone \(alone))")
        #expect(Take.seconds(drop - key) <= 0.15, "the level fell \(Take.seconds(drop - key)) s after the keys")
    }
}
