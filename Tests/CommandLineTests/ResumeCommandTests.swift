import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `smfplay resume` end to end: the real binary plays a song through a real PulseAudio server and
// is stopped (killed, terminated, or quit with q); a second run goes on from there. Both places
// are measured in what reached the sink, not on the screen: the song is a staircase whose note
// rises a semitone every second (see `Songs.staircase`), so the note heard says which second of
// the song plays, and when the next step starts says where in that second (see PlayCommandTests
// for how recordings are measured).

@Suite("smfplay resume: goes on where the last player stopped, through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct ResumeCommandTests {
    static let firstNote = 60
    /// The bound: a resume starts within this of where the song was heard when it stopped.
    static let resumeTolerance = 1.5

    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
        #expect(try server.sinkInputs().isEmpty, "a stream is left from another test")
    }

    /// How the first player is stopped.
    enum Stop: Sendable, CustomTestStringConvertible {
        case signal(Int32)
        case key(String)

        var testDescription: String {
            switch self {
            case .signal(SIGKILL): "kill -9"
            case .signal(SIGTERM): "SIGTERM"
            case .signal(let number): "signal \(number)"
            case .key(let key): "the key \(key)"
            }
        }
    }

    struct StopCase: Sendable, CustomTestStringConvertible {
        var stop: Stop
        /// The command that goes on: `resume`, or `play` with no path.
        var command: String
        var testDescription: String { "\(stop.testDescription), then smfplay \(command)" }
    }

    // MARK: Stopped, then resumed

    @Test(
        "stopped after a few seconds, the next run starts within 1.5 s of where the song was heard when it stopped",
        arguments: [
            StopCase(stop: .signal(SIGKILL), command: "resume"),
            StopCase(stop: .signal(SIGTERM), command: "resume"),
            StopCase(stop: .key("q"), command: "resume"),
            StopCase(stop: .key("q"), command: "play"),
        ])
    func resumesWhereItStopped(_ kind: StopCase) throws {
        let sandbox = try Self.libraryWithStaircase()

        let stopped = try playAndStop(sandbox, "Library/Bach/staircase.mid", after: 4.5, by: kind.stop)
        let resumed = try listen(sandbox, [kind.command])
        print("\(kind.testDescription): heard at \(Take.format(stopped)) s when stopped; went on from \(resumed.place.map(Take.format) ?? "?") s")
        #expect(resumed.announced?.hasSuffix("Library/Bach/staircase.mid (0:40.0)") == true, "\(resumed.report)")
        #expect(resumed.problems.isEmpty, "\(resumed.report)")
        let place = try #require(resumed.place, "the resumed song was not heard going on to its next step: \(resumed.report)")
        #expect(
            abs(place - stopped) <= Self.resumeTolerance,
            "stopped where the song was at \(stopped) s, went on from \(place) s: \(resumed.report)")
    }

    @Test("at --tempo 2 the saved place is song time, twice the time heard, and resume goes on from it")
    func aFasterTempoSavesSongTime() throws {
        let sandbox = try Self.libraryWithStaircase()
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "Library/Bach/staircase.mid", "--tempo", "2"] + PlayCommandTests.clean, server: server)
        try #require(player.waitForLine(containing: "staircase.mid") != nil, "\(player.report(player.wait(timeLimit: 5)))")
        player.sleep(seconds: 2.5)
        let stopFrame = take.framesSoFar
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        let start = try #require(sound.spans.first { sound.peak($0) > 5e-3 }?.lowerBound, "nothing reached the sink")
        let heard = sound.soundingSeconds(in: start..<stopFrame)
        let saved = try sandbox.savedState().position.seconds
        print("tempo 2: \(Take.format(heard)) s heard, saved at \(Take.format(saved)) s of the song")
        #expect(abs(saved - 2 * heard) <= 0.3, "heard \(heard) s at tempo 2, saved \(saved) s, not twice that")
        let resumed = try listen(sandbox, ["resume"])
        let place = try #require(resumed.place, "the resumed song was not heard going on: \(resumed.report)")
        #expect(abs(place - saved) <= Self.resumeTolerance, "saved at \(saved) s, went on from \(place) s: \(resumed.report)")
    }

    @Test("the library folder moved and the configuration pointing at its new place: resume finds the file there and goes on")
    func resumesAfterTheLibraryMoved() throws {
        let sandbox = try Self.libraryWithStaircase()
        let stopped = try playAndStop(sandbox, "Library/Bach/staircase.mid", after: 4.5, by: .key("q"))

        try FileManager.default.moveItem(atPath: sandbox.path("Library"), toPath: sandbox.path("Moved Library"))
        try sandbox.useLibrary("Moved Library")
        let resumed = try listen(sandbox, ["resume"])
        print("library moved: heard at \(Take.format(stopped)) s when stopped; went on from \(resumed.place.map(Take.format) ?? "?") s")
        #expect(resumed.announced?.hasSuffix("/Moved Library/Bach/staircase.mid (0:40.0)") == true, "\(resumed.report)")
        #expect(resumed.problems.isEmpty, "\(resumed.report)")
        let place = try #require(resumed.place, "the resumed song was not heard going on to its next step: \(resumed.report)")
        #expect(abs(place - stopped) <= Self.resumeTolerance, "stopped at \(stopped) s, went on from \(place) s: \(resumed.report)")
    }

    @Test(
        "the library moved and the configuration not yet told: resume names the file it cannot read, exits 1, and keeps the saved place for when it is"
    )
    func aLibraryNotFoundKeepsTheSavedPlace() throws {
        let sandbox = try Self.libraryWithStaircase()
        let stopped = try playAndStop(sandbox, "Library/Bach/staircase.mid", after: 4.5, by: .key("q"))
        let saved = try sandbox.savedState()

        try FileManager.default.moveItem(atPath: sandbox.path("Library"), toPath: sandbox.path("Moved Library"))
        let failed = try sandbox.run(["resume"] + PlayCommandTests.synthesis, environment: ["PULSE_SERVER": server.address])
        #expect(failed.status == 1 && failed.signal == nil, "\(failed)")
        #expect(failed.stderrLines.contains { $0.contains("Library/Bach/staircase.mid") }, "\(failed)")
        #expect(failed.stderrLines.last == "smfplay: nothing in the queue could be played", "\(failed)")
        let kept = try sandbox.savedState()
        #expect(
            kept.queue == saved.queue && kept.place == saved.place && kept.position.seconds == saved.position.seconds,
            "saved \(saved), now \(kept)")

        try sandbox.useLibrary("Moved Library")
        let resumed = try listen(sandbox, ["resume"])
        let place = try #require(resumed.place, "the resumed song was not heard going on to its next step: \(resumed.report)")
        #expect(abs(place - stopped) <= Self.resumeTolerance, "stopped at \(stopped) s, went on from \(place) s: \(resumed.report)")
    }

    @Test("the file it stopped in is gone: resume says so and starts the next file of the queue from its beginning, not at the old place")
    func aVanishedFileGivesWayToTheNextFromItsStart() throws {
        let sandbox = try Sandbox()
        try sandbox.useLibrary("Library")
        try sandbox.write("Library/Bach/1 first.mid", Songs.staircase(seconds: 40, firstNote: UInt8(Self.firstNote)))
        try sandbox.write("Library/Bach/2 second.mid", Songs.staircase(seconds: 40, firstNote: 72))
        _ = try playAndStop(sandbox, "Library/Bach", after: 4.5, by: .key("q"))

        try FileManager.default.removeItem(atPath: sandbox.path("Library/Bach/1 first.mid"))
        let resumed = try listen(sandbox, ["resume"], status: 1)
        #expect(resumed.announced?.hasSuffix("Library/Bach/2 second.mid (0:40.0)") == true, "\(resumed.report)")
        #expect(resumed.problems.contains { $0.contains("1 first.mid") }, "\(resumed.report)")
        #expect(
            resumed.firstNote == 72,
            "the first note heard is \(resumed.firstNote.map(String.init) ?? "none"), not the next file's first (72): \(resumed.report)")
    }

    struct Change: Sendable, CustomTestStringConvertible {
        var name: String
        /// The song's first note after the change.
        var firstNote: Int
        var testDescription: String { name }
    }

    @Test(
        "a file changed since it was played starts from its beginning, with a message saying so",
        arguments: [Change(name: "touched", firstNote: 60), Change(name: "rewritten with another song", firstNote: 72)])
    func aChangedFileStartsFromTheBeginning(_ change: Change) throws {
        let sandbox = try Self.libraryWithStaircase()
        let stopped = try playAndStop(sandbox, "Library/Bach/staircase.mid", after: 4.5, by: .key("q"))
        // Far enough in that the first second of the song is not where it stopped.
        try #require(stopped >= 3, "the first run stopped at \(stopped) s")

        if change.firstNote == Self.firstNote {
            try sandbox.setModificationDate("Library/Bach/staircase.mid", Date())
        } else {
            try sandbox.write("Library/Bach/staircase.mid", Songs.staircase(seconds: 40, firstNote: UInt8(change.firstNote)))
        }
        let resumed = try listen(sandbox, ["resume"])
        print(
            "\(change.name): stopped at \(Take.format(stopped)) s; started again with note \(resumed.firstNote.map(String.init) ?? "none"); said: \(resumed.problems)"
        )
        #expect(
            resumed.problems.contains { $0.contains("staircase.mid") && $0.contains("changed") && $0.contains("beginning") },
            "no message says the file changed and starts from its beginning: \(resumed.report)")
        // The song's first step: the first second, not where the last run stopped.
        #expect(
            resumed.firstNote == change.firstNote,
            "the first note heard is \(resumed.firstNote.map(String.init) ?? "none"), not the song's first (\(change.firstNote)): \(resumed.report)")
    }

    @Test("a queue played to its end: resume says so and plays it again from its start, not the last second of its last file")
    func aFinishedQueueStartsAgain() throws {
        let sandbox = try Sandbox()
        try sandbox.useLibrary("Library")
        try sandbox.write("Library/Bach/staircase.mid", Songs.staircase(seconds: 5, firstNote: UInt8(Self.firstNote)))
        let played = try sandbox.run(
            ["play", "Library/Bach/staircase.mid"] + PlayCommandTests.synthesis, environment: ["PULSE_SERVER": server.address])
        #expect(played.succeeded, "\(played)")
        let saved = try sandbox.savedState()
        #expect(saved.queue == ["Bach/staircase.mid"] && saved.place == 1, "the state does not say the queue ended: \(saved)")

        let resumed = try listen(sandbox, ["resume"])
        #expect(resumed.problems.contains { $0.contains("played to its end") && $0.contains("from the start") }, "\(resumed.report)")
        #expect(
            resumed.firstNote == Self.firstNote,
            "the first note heard is \(resumed.firstNote.map(String.init) ?? "none"), not the song's first: \(resumed.report)")
    }

    // MARK: The state file

    @Test(
        "a damaged state database is kept aside with a warning and the player starts afresh; an old state.json is carried over, or kept as state.json.bad when it cannot be read"
    )
    func aCorruptStateIsSetAside() throws {
        let sandbox = try Sandbox()
        try sandbox.write("short.mid", Songs.heldNote(69, seconds: 1))
        let state = sandbox.statePath
        let environment = ["PULSE_SERVER": server.address]

        // Nothing saved: nothing to resume.
        let nothing = try sandbox.run(["resume"] + PlayCommandTests.synthesis, environment: environment)
        #expect(nothing.status == 1 && nothing.signal == nil, "\(nothing)")
        #expect(nothing.stderr.contains("nothing to resume"), "\(nothing)")

        // A file that is not an SQLite database in the database's place.
        let garbage = Array(repeating: UInt8(ascii: "x"), count: 4096)
        try sandbox.write(state, garbage)
        let resume = try sandbox.run(["resume"] + PlayCommandTests.synthesis, environment: environment)
        #expect(resume.status == 1 && resume.signal == nil, "\(resume)")
        #expect(
            resume.stderrLines.contains { $0.contains(state + ":") && $0.contains(state + ".bad-") },
            "no warning names the state file and where it was kept: \(resume)")
        #expect(resume.stderr.contains("nothing to resume"), "\(resume)")
        let folder = (state as NSString).deletingLastPathComponent
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.sqlite.bad-") }
        #expect(kept.count == 1 && (try? sandbox.contents(folder + "/" + kept[0])) == Data(garbage), "\(kept)")

        // An older smfplay's state.json that cannot be read, and no database yet.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasPrefix("state.sqlite") {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        let truncated = Array(#"{"version": 1, "queue": ["Bach/Prel"#.utf8)
        let old = sandbox.oldStatePath
        try sandbox.write(old, truncated)
        let play = try sandbox.run(["play", "short.mid"] + PlayCommandTests.synthesis, environment: environment)
        #expect(play.succeeded, "\(play)")
        #expect(play.stdoutLines == ["playing 1/1: short.mid (0:01.0)"], "\(play)")
        #expect(
            play.stderrLines.contains { $0.contains(old + ":") && $0.contains(old + ".bad") },
            "no warning names the old state file and where it was kept: \(play)")
        #expect(Array(try sandbox.contents(old + ".bad")) == truncated)
        #expect(!sandbox.exists(old))
        // A fresh state, made by this run.
        let saved = try sandbox.savedState()
        #expect(saved.queue == [sandbox.path("short.mid")], "\(saved)")
    }

    @Test("a state.json of an older smfplay is carried over: resume goes on from it, and the file is gone")
    func anOldStateFileIsCarriedOver() throws {
        let sandbox = try Self.libraryWithStaircase()
        let old = """
            {"version": 1, "libraryRoot": "\(sandbox.path("Library"))", "queue": ["Bach/staircase.mid"], "order": [0], "place": 0,
             "position": {"seconds": 9.5, "ticks": 0}, "repeatMode": "off", "shuffled": false}
            """
        try sandbox.write(sandbox.oldStatePath, Array(old.utf8))
        let resumed = try listen(sandbox, ["resume"])
        #expect(resumed.problems.isEmpty, "\(resumed.report)")
        #expect(
            resumed.place.map { abs($0 - 9.5) < 1.5 } == true,
            "resumed at \(resumed.place.map { "\($0) s" } ?? "no step"), not 9.5 s: \(resumed.report)")
        #expect(!sandbox.exists(sandbox.oldStatePath))
        #expect(try sandbox.savedState().queue == ["Bach/staircase.mid"])
    }

    @Test("a second player while one plays says another is running, and leaves the first one's state alone")
    func aSecondPlayerSaysAnotherIsRunning() throws {
        let sandbox = try Self.libraryWithStaircase()
        try sandbox.write("short.mid", Songs.heldNote(69, seconds: 1))

        let first = try PlayingCommand(sandbox, ["play", "Library/Bach/staircase.mid"] + PlayCommandTests.clean, server: server)
        #expect(first.waitForLine(containing: "staircase.mid") != nil)
        first.sleep(seconds: 1.5)
        // Paused, the first player saves once and then leaves the file as it is: whatever changes
        // it from now on is the second player.
        first.type(" ")
        first.sleep(seconds: 0.5)
        let paused = try sandbox.savedState()
        let second = try sandbox.run(["play", "short.mid"] + PlayCommandTests.synthesis, environment: ["PULSE_SERVER": server.address])
        let afterSecond = try sandbox.savedState()
        first.type("q")
        let exit = first.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil, "\(first.report(exit))")

        // The first player's process id, which it wrote in the lock file when it took the lock.
        let holder = try String(decoding: sandbox.contents(sandbox.root + "/state/smfplay/state.lock"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(second.succeeded, "\(second)")
        #expect(second.stdoutLines == ["playing 1/1: short.mid (0:01.0)"], "\(second)")
        #expect(
            second.stderrLines.contains { $0.contains("another smfplay is already playing") && $0.contains("pid \(holder)") },
            "the second player does not say that another (pid \(holder)) is playing: \(second)")
        #expect(paused.queue == ["Bach/staircase.mid"] && paused.position.seconds >= 1, "\(paused)")
        #expect(
            afterSecond.queue == paused.queue && afterSecond.position.seconds == paused.position.seconds,
            "the second player changed the state: before it, \(paused); after it, \(afterSecond)")
    }

    // MARK: Playing and listening

    /// Plays `file` from its start, lets it play `seconds` after it is announced, stops it; returns
    /// where in the staircase it was heard at that moment.
    func playAndStop(_ sandbox: Sandbox, _ file: String, after seconds: Double, by stop: Stop) throws -> Double {
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", file] + PlayCommandTests.clean, server: server)
        try #require(player.waitForLine(containing: (file as NSString).lastPathComponent) != nil, "\(player.report(player.wait(timeLimit: 5)))")
        player.sleep(seconds: seconds)
        let stopFrame = take.framesSoFar
        switch stop {
        case .signal(let number): player.send(number)
        case .key(let key): player.type(key)
        }
        let exit = player.wait(timeLimit: 10)
        let (sound, _) = try take.finish()
        switch stop {
        case .signal(SIGKILL): #expect(exit.signal == SIGKILL, "\(player.report(exit))")
        case .signal(let number): #expect(exit.status == 128 + number && exit.signal == nil, "\(player.report(exit))")
        case .key: #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        }
        // The moment it stopped: when the signal or key went, or the end of the sound if that came first.
        let end = try #require(sound.spans.last { $0.lowerBound < stopFrame }?.upperBound, "nothing reached the sink: \(player.report(exit))")
        let place = try #require(
            sound.staircasePlace(before: min(stopFrame, end), firstNote: Self.firstNote),
            "no step of the staircase before the stop: \(Take.describe(sound.spans)) s")
        return place
    }

    /// A sandbox whose library, `Library`, holds a 40-second staircase: `Library/Bach/staircase.mid`.
    static func libraryWithStaircase() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.useLibrary("Library")
        try sandbox.write("Library/Bach/staircase.mid", Songs.staircase(seconds: 40, firstNote: UInt8(firstNote)))
        return sandbox
    }

    /// What a run that goes on with the saved queue was heard to do.
    struct Listened {
        /// Its `playing …` line.
        var announced: String?
        /// Where in the staircase it started.
        var place: Double?
        var firstNote: Int?
        /// Its standard error, but the output underruns.
        var problems: [String]
        var report: String
    }

    /// Runs smfplay with `arguments`, lets it play long enough to reach the staircase's next step,
    /// then quits; expects `status` (1: a file of the queue was passed over).
    func listen(_ sandbox: Sandbox, _ arguments: [String], status: Int32 = 0) throws -> Listened {
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, arguments + PlayCommandTests.clean, server: server)
        let announced = player.waitForLine(containing: "playing")
        if announced != nil { player.sleep(seconds: 3) }
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        let (sound, _) = try take.finish()
        #expect(exit.status == status && exit.signal == nil, "\(player.report(exit))")
        // Where the song starts: the first sound loud enough to hold a note. (A resume begins with
        // a blip of 2 ms at about -80 dBFS, a tenth of a second before the song, too faint to hear.)
        let start = sound.spans.first { sound.peak($0) > 5e-3 }?.lowerBound
        return Listened(
            announced: announced, place: start.flatMap { sound.staircasePlace(from: $0, firstNote: Self.firstNote) },
            firstNote: start.flatMap { sound.note(in: $0 + Take.frames(0.02)..<$0 + Take.frames(0.07)) },
            problems: player.problems, report: player.report(exit))
    }
}

// MARK: - Where in a staircase

extension Sound {
    /// Where in a staircase song (a step a second from `firstNote`) the sound was just before
    /// `frame`: the step heard then, and the sound since that step began.
    func staircasePlace(before frame: Int, firstNote: Int) -> Double? {
        let window = Take.frames(0.02)
        guard let note = note(in: frame - 3 * window..<frame - window) else { return nil }
        // Back far enough to be in the step before (a step is a second of sound).
        guard let stepStart = onset(of: note, from: frame - Take.frames(2.5)), stepStart < frame else { return nil }
        return Double(note - firstNote) + soundingSeconds(in: stepStart..<frame)
    }

    /// Where in a staircase song the sound starting at `frame` is: the next step's start, less the
    /// sound until it is heard.
    func staircasePlace(from frame: Int, firstNote: Int) -> Double? {
        guard let note = note(in: frame + Take.frames(0.02)..<frame + Take.frames(0.07)),
            let nextStep = onset(of: note + 1, from: frame + Take.frames(0.02))
        else { return nil }
        return Double(note + 1 - firstNote) - soundingSeconds(in: frame..<nextStep)
    }
}

// MARK: - The library and the state

extension Sandbox {
    /// Points the user's configuration's `library` at `folder` (under `work`).
    func useLibrary(_ folder: String) throws {
        try writeUserConfiguration("library = \"\(path(folder))\"\n")
    }

    /// `$XDG_STATE_HOME/smfplay/state.sqlite`.
    var statePath: String { root + "/state/smfplay/state.sqlite" }
    /// Where smfplay before 0.12 kept its state, carried over into the database once.
    var oldStatePath: String { root + "/state/smfplay/state.json" }

    /// The resume state as smfplay saved it: the keys a user would look at.
    struct SavedState: Decodable, CustomStringConvertible {
        struct Position: Decodable {
            var seconds: Double
        }

        var queue: [String]
        var order: [Int]
        var place: Int
        var position: Position

        var description: String { "queue \(queue), order \(order), place \(place), at \(position.seconds) s" }
    }

    /// Read with Debian's `sqlite3`, as another program would: the queue's paths, the order
    /// (32-bit little-endian numbers), the place and the position.
    func savedState() throws -> SavedState {
        let sql = """
            SELECT (SELECT json_group_array(CAST(path AS TEXT)) FROM (SELECT path FROM queue_file ORDER BY number)) AS queue,
                   hex(play_order) AS play_order, place, seconds FROM queue, position
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-json", "-readonly", statePath, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Row: Decodable {
            var queue: String
            // swift-format-ignore: AlwaysUseLowerCamelCase
            // The column's name, as sqlite3 -json writes it.
            var play_order: String
            var place: Int
            var seconds: Double
        }
        guard process.terminationStatus == 0, let row = try JSONDecoder().decode([Row].self, from: data).first else {
            throw TestFailure("no resume state in \(statePath): \(String(decoding: data, as: UTF8.self))")
        }
        let hex = Array(row.play_order.utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        let order = stride(from: 0, to: bytes.count, by: 4).map {
            Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 | Int(bytes[$0 + 2]) << 16 | Int(bytes[$0 + 3]) << 24
        }
        return SavedState(
            queue: try JSONDecoder().decode([String].self, from: Data(row.queue.utf8)), order: order, place: row.place,
            position: .init(seconds: row.seconds))
    }
}
