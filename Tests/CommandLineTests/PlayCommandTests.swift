import AudioOutput
import Foundation
import SMF
import TestSupport
import Testing

#if canImport(Glibc)
    import SystemPackage
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// `smfplay play` end to end: the real binary, a real PulseAudio server (its own runtime folder and
// socket, a null sink, no sound card, no desktop), keys through a pipe, and what reached the sink
// recorded from its monitor with `parec`.
//
// The songs are made for measuring: a church organ holds one note for exactly as long as the
// song lasts (a steady level, no gaps), and the ocarina plays near-sine notes whose pitch the
// zero crossings give reliably: a staircase that changes note every second says where in a song
// the player is, and a different note per file says which file plays.
//
// Timing. The recorder writes the monitor's audio to a file as it comes, 20 ms at a time, so the
// file's length when a key is typed (or a signal sent) marks that moment in the recording, to a
// block or so (the null sink renders a block ahead): every time below is measured inside the
// recording, not on the test's clock. Two things can make a recording lie, and both are
// accounted for rather than ignored:
// - Under load the recorder may lose audio (see docs/testing.md): each
//   take compares its length with the wall clock, and duration checks allow what it lost (up to
//   0.3 s; more fails).
// - Under load smfplay's output may run dry (an underrun: silence, after which the song goes on
//   where it was). smfplay counts them (`--verbose`); a gap in the sound is accepted only where it
//   reported one, and places in a song are counted in sound, not in time.

/// One PulseAudio server for the whole suite: started before its first test, stopped after its last.
struct SharedPulseAudioServer: SuiteTrait, TestScoping {
    @TaskLocal static var current: PulseAudioServer?

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        try await Self.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == SharedPulseAudioServer {
    /// Runs the suite with a PulseAudio server of its own (see `PlayCommandTests.server`).
    static var sharedPulseAudioServer: Self { Self() }
}

/// Serialized: the tests share the server's one null sink, and each records everything that reaches it.
@Suite("smfplay play: through a real PulseAudio server", .serialized, .sharedPulseAudioServer)
struct PlayCommandTests {
    /// The sound of every run: the small SoundFont, no effects (clean pitches and clean silences).
    static let synthesis = ["--soundfont", Fixtures.soundFont, "--no-reverb", "--no-chorus"]
    /// The options of every run: the sound above, the default latency spelt out, and the count of
    /// output underruns at the end (on standard error), which tells a gap the player left because
    /// the machine was busy from one it should not have left. Each song at its own level
    /// (`--loudness off`), as a render of it sounds: a song brought to the loudness target as it
    /// plays ramps to its level once measured, which the level checks would take for the player's
    /// fault.
    static let clean = synthesis + ["--latency", "50", "--verbose", "--loudness", "off"]

    let server: PulseAudioServer

    init() throws {
        try Fixtures.requireSoundFont()
        server = try #require(SharedPulseAudioServer.current, "the suite's PulseAudio server did not start")
        #expect(try server.sinkInputs().isEmpty, "a stream is left from another test")
    }

    // MARK: Duration

    @Test("a 3-second organ song sounds for 3 s (±0.3 s) without a gap, then its tail; status 0")
    func soundsForTheSongsDuration() throws {
        let sandbox = try Sandbox()
        try sandbox.write("organ.mid", Songs.organ(seconds: 3))
        // What the song sounds like when nothing is real time: its length with the tail.
        let render = try sandbox.run(
            ["render", "organ.mid", "-o", "organ.wav", "--bits", "32f", "--sample-rate", "\(Take.sampleRate)"] + Self.synthesis)
        try #require(render.succeeded, "\(render)")
        let rendered = try Songs.soundingSeconds(ofAudioFile: sandbox.path("organ.wav"))

        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "organ.mid"] + Self.clean, server: server)
        let announced = player.waitForLine(containing: "organ.mid")
        let announcedFrame = take.framesSoFar
        let exit = player.wait(timeLimit: 15)
        let (sound, lost) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(announced == "playing 1/1: organ.mid (0:03.0)", "\(player.report(exit))")

        let start = try #require(sound.spans.first?.lowerBound, "nothing reached the sink: \(player.report(exit))")
        // Audio arrives: the sound starts with the announcement, give or take the output's buffer
        // and the time the line takes to come through (a second is far more than either).
        #expect(abs(Take.seconds(start - announcedFrame)) < 1, "the sound started \(Take.seconds(start - announcedFrame)) s after the announcement")
        // Not silent for the song's duration: no gap at all, but where smfplay says its output ran
        // dry (an underrun: the machine did not run it in time; the song goes on where it was).
        let underruns = player.underruns ?? 0
        #expect(sound.gaps.count <= underruns, "the sound broke off (\(Take.describe(sound.spans)) s) where smfplay reported \(underruns) underruns")

        // The organ holds its note at a steady level until the song's end, then releases it: the
        // song's duration is the sound until the level falls below half of what it was for good.
        let level = sound.medianLevel(in: start + Take.frames(0.5)..<start + Take.frames(2.5), width: Take.frames(0.05))
        let release = try #require(sound.lastWindow(width: Take.frames(0.01)) { $0 >= level / 2 }?.upperBound)
        let held = sound.soundingSeconds(in: start..<release)
        let sounding = sound.soundingSeconds(in: 0..<sound.audio.frameCount)
        // The bound: the song's duration within 0.3 s, plus the tail (the render's, measured
        // the same way), and what the recorder lost meanwhile, which shortens what it heard.
        let tolerance = 0.3 + lost
        print(
            "duration: note held \(Take.format(held)) s of 3.000, sounding with its tail \(Take.format(sounding)) s (rendered: \(Take.format(rendered)) s), recorder lost \(Take.format(lost)) s, underruns \(underruns)"
        )
        #expect(abs(held - 3) <= tolerance, "the note sounded \(held) s, not 3 s (±\(tolerance) s)")
        #expect(abs(sounding - rendered) <= tolerance, "with its tail the song sounded \(sounding) s; rendered, \(rendered) s (±\(tolerance) s)")
        // And steadily: no 50 ms of the note (gaps aside) at less than a quarter of its level.
        let dip = sound.firstWindow(from: start, to: release, width: Take.frames(0.05)) { $0 < level / 4 }
        #expect(dip == nil, "the level dropped at \(dip.map { Take.seconds($0 - start) } ?? 0) s into the song")
    }

    // MARK: Pause

    @Test("space pauses within 100 ms; space again resumes from the same place, with the same note")
    func pauseAndResume() throws {
        let sandbox = try Sandbox()
        // Held notes, one a second: 0–1 s E5, 1–2 s A5, 2–3 s D6, 3–4 s G5.
        let steps = [76, 81, 86, 79]
        try sandbox.write("steps.mid", Songs.heldSteps(steps.map(UInt8.init)))
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "steps.mid"] + Self.clean, server: server)
        #expect(player.waitForLine(containing: "steps.mid") != nil)
        let pressed = player.typeAt([(1.5, " "), (2.5, " ")], take: take)
        let exit = player.wait(timeLimit: 15)
        let (sound, lost) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        try #require(pressed.count == 2)
        let start = try #require(sound.spans.first?.lowerBound, "nothing reached the sink: \(player.report(exit))")
        let (pause, resume) = (pressed[0], pressed[1])

        // The pause: the gap of half a second or more (an underrun is shorter) around or after the key.
        let gap = try #require(
            sound.gaps.first { $0.upperBound > pause && $0.count >= Take.frames(0.5) },
            "the sound never stopped after space: \(Take.describe(sound.spans)) s")
        // The bound: silent within 100 ms of the key. (The key's moment is the recording's
        // length before it was typed; the monitor runs up to a block, about 20 ms, ahead of the
        // sink, so a pause that took no time at all shows as a little less than none.)
        let pauseLatency = Take.seconds(gap.lowerBound - pause)
        #expect(pauseLatency <= 0.1, "silent \(pauseLatency) s after space")
        // Paused, it stays silent until space again.
        #expect(gap.upperBound >= resume, "sound came back \(Take.seconds(resume - gap.upperBound)) s before the second space")
        let resumeLatency = Take.seconds(gap.upperBound - resume)

        // The same place: the note before the pause comes back, and the song goes on to its next
        // note when the sound before the pause and after it add up to that note's start (2 s).
        let before = sound.note(in: gap.lowerBound - Take.frames(0.06)..<gap.lowerBound - Take.frames(0.01))
        let after = sound.note(in: gap.upperBound + Take.frames(0.02)..<gap.upperBound + Take.frames(0.07))
        #expect(before == steps[1], "before the pause: note \(before.map(String.init) ?? "none"), not \(steps[1])")
        #expect(after == steps[1], "after the resume: note \(after.map(String.init) ?? "none"), not \(steps[1])")
        let nextStep = try #require(sound.onset(of: steps[2], from: gap.upperBound), "the song did not go on to its third note after the resume")
        let heardAtStep = sound.soundingSeconds(in: start..<gap.lowerBound) + sound.soundingSeconds(in: gap.upperBound..<nextStep)
        // A place is measured inside the recording, in sound: the 0.3 s allowed a duration is for durations,
        // and resuming elsewhere by as little as the output's buffer (50 ms) should show. 0.1 s
        // covers the 20 ms windows the notes are found with and the recorder's blocks.
        print(
            "pause: silent \(Take.milliseconds(pauseLatency)) ms after space, sound back \(Take.milliseconds(resumeLatency)) ms after space; third note after \(Take.format(heardAtStep)) s of sound (2.000 expected); recorder lost \(Take.format(lost)) s, underruns \(player.underruns.map(String.init) ?? "?")"
        )
        #expect(
            abs(heardAtStep - 2) <= 0.1 + lost,
            "the third note came after \(heardAtStep) s of sound, not 2 s: the resume did not continue from the same place")
    }

    // MARK: Seek

    @Test("→ ← ↑ ↓ seek ±5 s and ±30 s: after each seek the note is the one the song plays there")
    func seekPlaysTheSongThere() throws {
        // 40 one-second steps, C4 to D♯7. Each seek lands half a second into a step, so the note
        // heard after it does not depend on the exact moment the key was read.
        try expectSeeksLand(
            [
                (0.5, "\u{1B}[A", 30), // 0.5 → 30.5
                (1.5, "\u{1B}[D", -5), // 31.5 → 26.5
                (2.5, "\u{1B}[B", -30), // 27.5 → 0 (not before the start)
                (4.0, "\u{1B}[C", 5), // 1.5 → 6.5
            ], steps: 40, firstNote: 60)
    }

    @Test("keys pressed at once add up: ↑↑ seeks +60 s, then ←←←← −20 s (presses were lost while a seek was under way)")
    func quickSeeksAddUp() throws {
        // 64 one-second steps, F♯1 to D♯6.
        try expectSeeksLand(
            [
                (0.5, "\u{1B}[A\u{1B}[A", 60), // 0.5 → 60.5
                (1.5, "\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D", -20), // 61.5 → 41.5
            ], steps: 64, firstNote: 30)
    }

    /// Plays a staircase of `steps` one-second steps from `firstNote`, each note struck 8 times a
    /// second so that a seek into a step is heard at once (without --chase-notes a note struck
    /// before the target is not); types each key (one or more seeks written at once) `after`
    /// seconds; checks that after each the note heard is the step at the seek's target, and that
    /// the song goes on from the target.
    func expectSeeksLand(_ keys: [(after: Double, key: String, offset: Double)], steps: Int, firstNote: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.write("staircase.mid", Songs.staircase(seconds: steps, firstNote: UInt8(firstNote)))
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "staircase.mid"] + Self.clean, server: server)
        #expect(player.waitForLine(containing: "staircase.mid") != nil)
        let lastKey = keys.last?.after ?? 0
        let pressed = player.typeAt(keys.map { ($0.after, $0.key) } + [(lastKey + 1, "q")], take: take)
        let exit = player.wait(timeLimit: 15)
        let (sound, lost) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        try #require(pressed.count == keys.count + 1)
        let start = try #require(sound.spans.first?.lowerBound, "nothing reached the sink: \(player.report(exit))")

        // Where the song is heard: from its start, then from each seek's target, counting sound
        // only (the song does not move on while the output has run dry).
        var place = (frame: start, seconds: 0.0)
        var report: [String] = []
        for (index, key) in keys.enumerated() {
            let frame = pressed[index]
            let heard = place.seconds + sound.soundingSeconds(in: place.frame..<frame)
            let target = max(0, heard + key.offset)
            place = (frame, target)
            // 0.15–0.35 s after the key: the buffer the seek dropped is gone, and the song is 0.1–0.3 s past the target.
            let window = frame + Take.frames(0.15)..<frame + Take.frames(0.35)
            let expected = firstNote + Int(target + 0.2)
            let heardNote = sound.note(in: window)
            let hertz = sound.frequency(in: window)
            // When the song moves on to the next step tells where in its step the seek landed.
            let change = sound.onset(of: expected + 1, from: frame + Take.frames(0.05))
            let landed = change.map { Double(expected - firstNote + 1) - sound.soundingSeconds(in: frame..<$0) }
            let landingError = landed.map { abs($0 - target) } ?? .infinity
            let from = Take.format(heard)
            let to = Take.format(target)
            report.append(
                "\(key.offset > 0 ? "+" : "")\(Int(key.offset)) s at \(from) s → \(to) s: note \(heardNote.map(String.init) ?? "none") (\(Int(hertz.rounded())) Hz), expected \(expected); went on from \(landed.map(Take.format) ?? "?") s"
            )
            #expect(
                heardNote == expected,
                "after seeking \(key.offset) s from \(from) s to \(to) s: note \(heardNote.map(String.init) ?? "none") (\(hertz) Hz), expected \(expected)"
            )
            // And where in the step: the song goes on from the target, within 0.3 s.
            #expect(
                landingError <= 0.3 + lost,
                "after seeking \(key.offset) s from \(from) s to \(to) s the song went on from \(landed.map(Take.format) ?? "?") s")
        }
        print("seek: " + report.joined(separator: "; ") + "; underruns \(player.underruns.map(String.init) ?? "?")")
    }

    // MARK: Queue

    @Test("three files play, all three, in the order given, each announced as it starts")
    func queuePlaysInOrder() throws {
        let sandbox = try Sandbox()
        // Named against their order, so neither the names nor the pitches sort the queue.
        let files = [("zeta.mid", UInt8(72)), ("alpha.mid", 64), ("mu.mid", 69)]
        for (name, note) in files { try sandbox.write(name, Songs.heldNote(note, seconds: 1)) }
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play"] + files.map(\.0) + Self.clean, server: server)
        let exit = player.wait(timeLimit: 20)
        let (sound, lost) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(player.stdoutLines == files.enumerated().map { "playing \($0.offset + 1)/3: \($0.element.0) (0:01.0)" }, "\(player.report(exit))")
        #expect(player.problems.isEmpty, "\(player.report(exit))")

        let notes = sound.noteRuns()
        print(
            "queue: " + notes.map { "\($0.note) for \(Take.format(Take.seconds($0.frames.count))) s" }.joined(separator: ", ")
                + "; recorder lost \(Take.format(lost)) s, underruns \(player.underruns.map(String.init) ?? "?")")
        #expect(notes.map(\.note) == files.map { Int($0.1) }, "notes heard: \(notes.map(\.note))")
        for run in notes {
            // Each file's one-second note, give or take 0.3 s (its tail counts too).
            #expect(Take.seconds(run.frames.count) >= 0.7 - lost, "note \(run.note) sounded \(Take.seconds(run.frames.count)) s")
        }
    }

    @Test("smfplay [OPTIONS] FILE... plays as smfplay play does, a file named like a command (./info) too")
    func playWithoutTheCommand() throws {
        let sandbox = try Sandbox()
        let files = [("info", UInt8(72)), ("alpha.mid", 64)]
        for (name, note) in files { try sandbox.write(name, Songs.heldNote(note, seconds: 1)) }
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, Self.clean + ["./info", "alpha.mid"], server: server)
        let exit = player.wait(timeLimit: 20)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(player.stdoutLines == ["playing 1/2: ./info (0:01.0)", "playing 2/2: alpha.mid (0:01.0)"], "\(player.report(exit))")
        #expect(sound.noteRuns().map(\.note) == files.map { Int($0.1) }, "notes heard: \(sound.noteRuns().map(\.note))")
    }

    @Test("--repeat one: the file plays again and again, announced each time it starts")
    func repeatOneAnnouncesEachStart() throws {
        let sandbox = try Sandbox()
        try sandbox.write("loop.mid", Songs.heldNote(72, seconds: 1))
        let player = try PlayingCommand(sandbox, ["play", "loop.mid", "--repeat", "one"] + Self.clean, server: server)
        let deadline = monotonicSeconds() + 10
        while player.stdoutLines.count < 3, monotonicSeconds() < deadline { player.sleep(seconds: 0.05) }
        player.type("q")
        let exit = player.wait(timeLimit: 10)
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(player.stdoutLines.count >= 3 && player.stdoutLines.allSatisfy { $0 == "playing 1/1: loop.mid (0:01.0)" }, "\(player.report(exit))")
    }

    @Test("missing, unreadable and broken files in the queue are reported by name and skipped; the rest plays, and the status is 1")
    func badFilesAreSkipped() throws {
        let sandbox = try Sandbox()
        try sandbox.write("first.mid", Songs.heldNote(72, seconds: 1))
        try sandbox.write("noise.mid", Fixtures.noise(count: 256))
        try sandbox.write("truncated.mid", Fixtures.truncatedEvent)
        // A FIFO where a file should be: unreadable as a MIDI file even for root, who reads any
        // file whatever its mode.
        #expect(mkfifo(sandbox.path("pipe.mid"), 0o644) == 0)
        try sandbox.write("second.mid", Songs.heldNote(64, seconds: 1))
        // Read when its turn comes, after the test has removed it.
        try sandbox.write("vanishing.mid", Songs.heldNote(76, seconds: 1))
        try sandbox.write("third.mid", Songs.heldNote(69, seconds: 1))
        let queue = ["first.mid", "missing.mid", "noise.mid", "truncated.mid", "pipe.mid", "second.mid", "vanishing.mid", "third.mid"]

        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play"] + queue + Self.clean, server: server)
        // The file after the current one is read as soon as the current one starts: vanishing.mid
        // is read when second.mid starts, a second from now.
        #expect(player.waitForLine(containing: "first.mid") != nil)
        try FileManager.default.removeItem(atPath: sandbox.path("vanishing.mid"))
        let exit = player.wait(timeLimit: 20)
        let (sound, _) = try take.finish()
        #expect(exit.status == 1 && exit.signal == nil, "\(player.report(exit))")
        let played = player.stdoutLines.compactMap { line in queue.first { line.contains(": \($0) (") } }
        #expect(played == ["first.mid", "second.mid", "third.mid"], "\(player.report(exit))")
        for bad in ["missing.mid", "noise.mid", "truncated.mid", "pipe.mid", "vanishing.mid"] {
            #expect(player.stderrLines.contains { $0.contains(bad) }, "\(bad) is not reported: \(player.report(exit))")
        }
        #expect(sound.noteRuns().map(\.note) == [72, 64, 69], "notes heard: \(sound.noteRuns().map(\.note))")
        print("skipped files: " + player.problems.joined(separator: " | "))
    }

    // MARK: Stopping

    @Test("q quits at once with status 0 and leaves the server no stream and no client of ours")
    func quitLeavesNoStream() throws {
        let sandbox = try Sandbox()
        try sandbox.write("organ.mid", Songs.organ(seconds: 10))
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "organ.mid"] + Self.clean, server: server)
        #expect(player.waitForLine(containing: "organ.mid") != nil)
        // While it plays, the server lists its stream and its connection: what must be gone after.
        let streams = try server.sinkInputs()
        let clients = try server.clientNames()
        let pressed = player.typeAt([(1.0, "q")], take: take)
        let exit = player.wait(timeLimit: 10)
        let streamsAfter = try server.sinkInputs()
        let clientsAfter = try server.clientNames()
        let (sound, _) = try take.finish()

        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(streams.count == 1, "while playing: \(streams)")
        #expect(clients.contains("smfplay"), "while playing: \(clients)")
        #expect(streamsAfter.isEmpty, "after quitting: \(streamsAfter)")
        #expect(!clientsAfter.contains("smfplay"), "after quitting: \(clientsAfter)")
        try #require(pressed.count == 1)
        let quitAfter = exit.elapsed - player.typedAt[0]
        let end = sound.spans.last?.upperBound
        let soundAfter = end.map { Take.seconds($0 - pressed[0]) } ?? -1
        print("quit: exited \(Take.milliseconds(quitAfter)) ms after q; sound ended \(Take.milliseconds(soundAfter)) ms after q")
        // Notes released and the buffer drained briefly (at most 0.3 s), not the song played on.
        #expect(soundAfter <= 0.5, "the sound went on \(soundAfter) s after q")
        #expect(quitAfter <= 1, "smfplay took \(quitAfter) s to quit")
    }

    struct SignalCase: Sendable, CustomTestStringConvertible {
        var signal: Int32
        var name: String
        var status: Int32
        var testDescription: String { "\(name) → \(status)" }
    }

    @Test(
        "SIGINT and SIGTERM: notes released, output drained briefly, no stream left, status 130 and 143",
        arguments: [SignalCase(signal: SIGINT, name: "SIGINT", status: 130), SignalCase(signal: SIGTERM, name: "SIGTERM", status: 143)])
    func signalStopsCleanly(_ kind: SignalCase) throws {
        let sandbox = try Sandbox()
        try sandbox.write("organ.mid", Songs.organ(seconds: 10))
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "organ.mid"] + Self.clean, server: server)
        #expect(player.waitForLine(containing: "organ.mid") != nil)
        player.sleep(seconds: 1.0)
        let sent = take.framesSoFar
        let sentAt = player.clock
        player.send(kind.signal)
        let exit = player.wait(timeLimit: 10)
        let streamsAfter = try server.sinkInputs()
        let (sound, _) = try take.finish()

        #expect(exit.signal == nil, "killed by the signal instead of stopping: \(player.report(exit))")
        #expect(exit.status == kind.status, "\(player.report(exit))")
        #expect(streamsAfter.isEmpty, "after \(kind.name): \(streamsAfter)")
        let stopAfter = exit.elapsed - sentAt
        let end = try #require(sound.spans.last?.upperBound, "nothing reached the sink: \(player.report(exit))")
        let soundAfter = Take.seconds(end - sent)
        // The note's level before the signal, and in the last 5 ms before the sound ends: a
        // released note fades out, a cut one stops at full level (a click).
        let level = sound.peak(sent - Take.frames(0.2)..<sent)
        let last = sound.peak(end - Take.frames(0.005)..<end)
        print(
            "\(kind.name): exited \(Take.milliseconds(stopAfter)) ms after the signal; sound ended \(Take.milliseconds(soundAfter)) ms after it, last 5 ms at \(Take.format(Double(last / level) * 100)) % of the note's peak"
        )
        #expect(stopAfter <= 1, "smfplay took \(stopAfter) s to stop")
        // Drained briefly: what was buffered and the release, 0.3 s at most, not the rest of the song.
        #expect(soundAfter <= 0.5, "the sound went on \(soundAfter) s after \(kind.name)")
        #expect(last < level / 2, "the note was cut at \(last / level * 100) % of its level instead of released")
    }
}

/// Failures that need no sound server: they must not wait for one either.
@Suite("smfplay play: no server, nothing to play")
struct PlayWithoutServerTests {
    @Test("no server at the address: an error naming it and suggesting `smfplay render`, status 69, within 2 s")
    func noServer() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        // Nothing at the address (the usual case: no server runs), and a socket that accepts the
        // connection and never answers (a server that hangs): the second waits out the time limit.
        let silent = sandbox.root + "/silent"
        let listener = try SilentSocket(path: silent)
        defer { listener.close() }
        for address in ["unix:" + sandbox.root + "/nothing", "unix:" + silent] {
            let result = try sandbox.run(["play", "song.mid", "--soundfont", Fixtures.soundFont], environment: ["PULSE_SERVER": address])
            print("no server at \(address): status \(result.status) after \(Take.format(result.elapsed)) s")
            #expect(result.status == 69, "\(result)")
            #expect(result.signal == nil, "\(result)")
            #expect(result.stderr.contains(address), "the message does not name the server: \(result)")
            #expect(result.stderr.contains("smfplay render"), "the message does not suggest smfplay render: \(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            // A missing server is known within 2 s.
            #expect(result.elapsed < 2, "took \(result.elapsed) s")
        }
        // Bad input fails differently: a usage error (64) and nothing playable (1).
        let badOption = try sandbox.run(["play", "song.mid", "--latency", "1"], environment: ["PULSE_SERVER": "unix:" + sandbox.root + "/nothing"])
        let missing = try sandbox.run(["play", "missing.mid"], environment: ["PULSE_SERVER": "unix:" + sandbox.root + "/nothing"])
        #expect(badOption.status == 64, "\(badOption)")
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("missing.mid"), "\(missing)")
    }

    @Test("an empty folder: a message that names it and says it has no MIDI files, status 1, no server needed")
    func emptyFolder() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("Empty"), withIntermediateDirectories: true)
        try sandbox.write("Empty/notes.txt", text: "not music\n")
        let result = try sandbox.run(["play", "Empty"], environment: ["PULSE_SERVER": "unix:" + sandbox.root + "/nothing"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.contains { $0.contains("Empty") && $0.contains("no MIDI files") }, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.elapsed < 2, "\(result)")
    }
}

// MARK: - Songs

/// Songs made to be measured, at 120 bpm and 480 ticks per quarter note: 960 ticks a second.
enum Songs {
    static let ticksPerSecond = 960
    static let organ: UInt8 = 19
    static let ocarina: UInt8 = 79

    /// One church-organ note (C4) held for the whole song: a steady level, no gap.
    static func organ(seconds: Int) -> [UInt8] {
        song(program: organ, notes: [(60, 0, seconds * ticksPerSecond)], length: seconds * ticksPerSecond)
    }

    /// One ocarina note held for the whole song.
    static func heldNote(_ note: UInt8, seconds: Int) -> [UInt8] {
        song(program: ocarina, notes: [(note, 0, seconds * ticksPerSecond)], length: seconds * ticksPerSecond)
    }

    /// Ocarina notes held a second each, one after the other.
    static func heldSteps(_ notes: [UInt8]) -> [UInt8] {
        song(
            program: ocarina, notes: notes.enumerated().map { ($0.element, $0.offset * ticksPerSecond, ($0.offset + 1) * ticksPerSecond) },
            length: notes.count * ticksPerSecond)
    }

    /// A note a semitone higher every second from `firstNote`, struck 8 times a second.
    static func staircase(seconds: Int, firstNote: UInt8, title: String? = nil) -> [UInt8] {
        let strike = ticksPerSecond / 8
        var notes: [(UInt8, Int, Int)] = []
        for second in 0..<seconds {
            for beat in 0..<8 {
                let start = second * ticksPerSecond + beat * strike
                notes.append((firstNote + UInt8(second), start, start + strike - 10))
            }
        }
        return song(program: ocarina, notes: notes, length: seconds * ticksPerSecond, title: title)
    }

    /// A format 0 song on channel 1: `notes` as (note, start tick, end tick), none overlapping another
    /// of the same pitch; its title is the track's name.
    static func song(program: UInt8, notes: [(note: UInt8, start: Int, end: Int)], length: Int, title: String? = nil) -> [UInt8] {
        var events: [(tick: Int, order: Int, message: MIDIMessage)] = [
            (0, 0, .meta(.tempo(microsecondsPerQuarterNote: 500_000))),
            (0, 1, .programChange(channel: 0, program: program)),
        ]
        if let title { events.append((0, -1, .meta(.text(.trackName, Array(title.utf8))))) }
        for note in notes {
            // At the same tick a note ends before the next starts.
            events.append((note.start, 3, .noteOn(channel: 0, note: note.note, velocity: 100)))
            events.append((note.end, 2, .noteOff(channel: 0, note: note.note, velocity: 0)))
        }
        var track = Track()
        for event in events.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) {
            track.append(event.message, atTick: UInt32(event.tick))
        }
        track.append(.meta(.endOfTrack), atTick: UInt32(length))
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    /// How long an audio file sounds, measured as the recordings are.
    static func soundingSeconds(ofAudioFile path: String) throws -> Double {
        let reader = try AudioFileReader(path: FilePath(path))
        let samples = try reader.readAll()
        // The recordings' rate (the player's output is resampled to it): the same frames measured the same way.
        guard reader.channels == 2, reader.sampleRate == Take.sampleRate else {
            throw PulseAudioServer.Failure("\(path): \(reader.channels) channels at \(reader.sampleRate) Hz, not stereo at \(Take.sampleRate) Hz")
        }
        let sound = Sound(PulseAudioServer.Audio(samples: samples, sampleRate: reader.sampleRate))
        return sound.soundingSeconds(in: 0..<sound.audio.frameCount)
    }
}

// MARK: - Recording

/// A recording of the null sink's monitor, with the wall clock beside it to tell how much audio
/// the recorder lost.
final class Take {
    /// Below this a sample is silence: the null sink gives exact zeros when nothing plays, and a
    /// release fades below it within a few hundred milliseconds.
    static let silence: Float = 1e-4
    static let sampleRate = 48_000

    let recording: PulseAudioServer.Recording
    private let startFrames: Int
    private let startTime: Double

    convenience init(_ server: PulseAudioServer) throws {
        guard server.sampleRate == Self.sampleRate else {
            throw PulseAudioServer.Failure("the null sink runs at \(server.sampleRate) Hz, not \(Self.sampleRate)")
        }
        self.init(recording: try server.record())
    }

    /// A recording started already (``PulseAudioServer/restart()``'s).
    init(recording: PulseAudioServer.Recording) {
        self.recording = recording
        startFrames = recording.framesSoFar
        startTime = monotonicSeconds()
    }

    /// Where the sink is now, to a block: the frames recorded so far.
    var framesSoFar: Int { recording.framesSoFar }

    /// Stops recording, after letting what was played last reach the file. Returns the sound and
    /// how many seconds of it the recorder lost (0 when it kept up; 0.3 at most, beyond which a
    /// measurement fails).
    func finish() throws -> (sound: Sound, lost: Double) {
        usleep(200_000)
        let endTime = monotonicSeconds()
        let audio = try recording.stop()
        let lost = (endTime - startTime) - Self.seconds(audio.frameCount - startFrames)
        if lost > 0.05 { print("the recorder lost \(Self.format(lost)) s of audio") }
        return (Sound(audio), min(max(0, lost), 0.3))
    }

    static func frames(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
    static func seconds(_ frames: Int) -> Double { Double(frames) / Double(sampleRate) }
    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
    static func milliseconds(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }
    static func describe(_ spans: [Range<Int>]) -> String {
        spans.map { "\(format(seconds($0.lowerBound)))–\(format(seconds($0.upperBound)))" }.joined(separator: ", ")
    }
}

/// A recording and where in it something sounds: spans of sound, and the gaps of 5 ms or more of
/// silence between them (a pause, the moment between two files, an underrun; a note's zero
/// crossings are far shorter). Measurements count sound, not time: while the output has run dry,
/// the song does not move on.
struct Sound {
    let audio: PulseAudioServer.Audio
    let spans: [Range<Int>]

    init(_ audio: PulseAudioServer.Audio) {
        self.audio = audio
        spans = audio.soundingSpans(threshold: Take.silence, gap: Take.frames(0.005))
    }

    var gaps: [Range<Int>] { zip(spans, spans.dropFirst()).map { $0.upperBound..<$1.lowerBound } }

    /// Seconds of sound within `frames`.
    func soundingSeconds(in frames: Range<Int>) -> Double {
        Take.seconds(spans.reduce(0) { $0 + $1.clamped(to: frames).count })
    }

    /// The left channel's root mean square over `frames` (clipped to the recording).
    func rms(_ frames: Range<Int>) -> Float {
        let range = frames.clamped(to: 0..<audio.frameCount)
        guard !range.isEmpty else { return 0 }
        var sum: Float = 0
        for frame in range { sum += audio.left(frame) * audio.left(frame) }
        return (sum / Float(range.count)).squareRoot()
    }

    func peak(_ frames: Range<Int>) -> Float {
        frames.clamped(to: 0..<audio.frameCount).reduce(0) { max($0, abs(audio.left($1))) }
    }

    /// The windows of `width` frames within `frames` that lie wholly in sound, in order.
    func windows(in frames: Range<Int>, width: Int) -> [Range<Int>] {
        spans.flatMap { span -> [Range<Int>] in
            let part = span.clamped(to: frames)
            return stride(from: part.lowerBound, through: part.upperBound - width, by: width).map { $0..<$0 + width }
        }
    }

    /// The median RMS of the windows in sound within `frames`: the level of a steady note.
    func medianLevel(in frames: Range<Int>, width: Int) -> Float {
        let levels = windows(in: frames, width: width).map(rms).sorted()
        return levels.isEmpty ? 0 : levels[levels.count / 2]
    }

    /// The last window in sound whose RMS satisfies `condition`.
    func lastWindow(width: Int, _ condition: (Float) -> Bool) -> Range<Int>? {
        windows(in: 0..<audio.frameCount, width: width).last { condition(rms($0)) }
    }

    /// The start of the first window in sound, from `from` (to `end`), whose RMS satisfies `condition`.
    func firstWindow(from: Int, to end: Int? = nil, width: Int, _ condition: (Float) -> Bool) -> Int? {
        windows(in: max(0, from)..<(end ?? audio.frameCount), width: width).first { condition(rms($0)) }?.lowerBound
    }

    /// The frequency over `frames`, from the median period between rising zero crossings (found
    /// to a fraction of a sample): a gap or a note's attack in the window does not sway it.
    func frequency(in frames: Range<Int>) -> Double {
        let range = frames.clamped(to: 1..<audio.frameCount)
        var crossings: [Double] = []
        for frame in range where audio.left(frame - 1) < 0 && audio.left(frame) >= 0 {
            let (before, after) = (Double(audio.left(frame - 1)), Double(audio.left(frame)))
            crossings.append(Double(frame - 1) + before / (before - after))
        }
        guard crossings.count >= 3 else { return 0 }
        let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }.sorted()
        return Double(audio.sampleRate) / periods[periods.count / 2]
    }

    /// The MIDI note sounding over `frames`, or nil when it is too quiet to tell.
    func note(in frames: Range<Int>) -> Int? {
        guard peak(frames) > 5e-3 else { return nil }
        let hertz = frequency(in: frames)
        guard hertz > 20 else { return nil }
        return Int((69 + 12 * log2(hertz / 440)).rounded())
    }

    /// Where `note` starts to sound after `from`: the first of three 20 ms windows in a row that
    /// hold it (one window may be mistaken at a note's attack).
    func onset(of note: Int, from: Int) -> Int? {
        let width = Take.frames(0.02)
        var run = 0
        for window in windows(in: max(0, from)..<audio.frameCount, width: width) {
            run = self.note(in: window) == note ? run + 1 : 0
            if run == 3 { return window.lowerBound - 2 * width }
        }
        return nil
    }

    /// The notes heard, in order, as runs of 20 ms windows with the same note; runs shorter than
    /// 100 ms (a note's attack, the moment between two files) are left out.
    func noteRuns() -> [(note: Int, frames: Range<Int>)] {
        var runs: [(note: Int, frames: Range<Int>)] = []
        for window in windows(in: 0..<audio.frameCount, width: Take.frames(0.02)) {
            guard let note = note(in: window) else { continue }
            if let last = runs.last, last.note == note, last.frames.upperBound == window.lowerBound {
                runs[runs.count - 1].frames = last.frames.lowerBound..<window.upperBound
            } else {
                runs.append((note, window))
            }
        }
        var merged: [(note: Int, frames: Range<Int>)] = []
        for run in runs where run.frames.count >= Take.frames(0.1) {
            if let last = merged.last, last.note == run.note {
                merged[merged.count - 1].frames = last.frames.lowerBound..<run.frames.upperBound
            } else {
                merged.append(run)
            }
        }
        return merged
    }
}

extension PulseAudioServer {
    /// The names of the clients connected (`pactl list short clients`, third column).
    func clientNames() throws -> [String] {
        let result = try Command(
            URL(fileURLWithPath: "/usr/bin/pactl"), arguments: ["list", "short", "clients"],
            environment: clientEnvironment, timeLimit: 10
        ).run()
        guard result.succeeded else { throw Failure("pactl failed:\n\(result)") }
        return result.stdoutLines.compactMap { line in
            let columns = line.split(separator: "\t")
            return columns.count >= 3 ? String(columns[2]) : nil
        }
    }
}

// MARK: - Running smfplay with keys on a pipe

/// Two glibc functions Swift's Glibc module leaves out (they need _GNU_SOURCE), looked up by name.
private enum GNU {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `pipe2(2)`: a pipe whose ends are close-on-exec from the start, so that no program another
    /// test starts meanwhile inherits one (and keeps it open).
    static let pipe2 = unsafeBitCast(dlsym(nil, "pipe2"), to: Pipe2.self)
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29).
    static let addChdir = unsafeBitCast(dlsym(nil, "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

extension Sandbox {
    /// Runs `smfplay` with `arguments` and the sandbox's environment plus `extra`.
    func run(_ arguments: [String], environment extra: [String: String]) throws -> Command.Result {
        let smfplay = try #require(Self.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        return try Command(
            smfplay, arguments: arguments, environment: environment.merging(extra) { $1 },
            workingDirectory: URL(fileURLWithPath: work), timeLimit: 60
        ).run()
    }
}

/// `smfplay` running in a sandbox as a script runs it: standard input a pipe the test writes keys
/// to when it chooses, standard output and error pipes read as they come, signals sent as a shell
/// sends them. It starts as from a shell: default signal handlers and no blocked signals (the test
/// runner's threads block some, and a child started by Foundation inherits that), in a process
/// group of its own so that a hang can be killed whole.
final class PlayingCommand: @unchecked Sendable {
    struct Exit {
        var status: Int32
        var signal: Int32?
        var timedOut: Bool
        /// Seconds from the start to the end.
        var elapsed: Double
    }

    let commandLine: String
    private let pid: pid_t
    private var input: Int32
    private let output: StreamReader
    private let errors: StreamReader
    private let started = monotonicSeconds()
    /// When each key was typed, in seconds from the start.
    private(set) var typedAt: [Double] = []

    /// - Parameter extra: variables added to the sandbox's environment (a session bus's address).
    init(_ sandbox: Sandbox, _ arguments: [String], server: PulseAudioServer, environment extra: [String: String] = [:]) throws {
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        commandLine = (["smfplay"] + arguments).joined(separator: " ")
        var environment = sandbox.environment.merging(extra) { $1 }
        environment["PULSE_SERVER"] = server.address

        var stdin: [Int32] = [-1, -1]
        var stdout: [Int32] = [-1, -1]
        var stderr: [Int32] = [-1, -1]
        // Close-on-exec: no other program the test runner starts meanwhile may hold an end open.
        guard GNU.pipe2(&stdin, O_CLOEXEC) == 0, GNU.pipe2(&stdout, O_CLOEXEC) == 0, GNU.pipe2(&stderr, O_CLOEXEC) == 0 else {
            throw PulseAudioServer.Failure("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
        _ = GNU.addChdir(&actions, sandbox.work)

        let spawned = spawnWithCleanSignals(smfplay.path, arguments, environment: environment, actions: &actions, newProcessGroup: true)
        close(stdin[0])
        close(stdout[1])
        close(stderr[1])
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let error):
            [stdin[1], stdout[0], stderr[0]].forEach { close($0) }
            throw PulseAudioServer.Failure(error.description)
        }
        input = stdin[1]
        output = StreamReader(stdout[0])
        errors = StreamReader(stderr[0])
    }

    deinit {
        if input >= 0 { close(input) }
        // A test that failed before waiting: end the program rather than leave it playing.
        if waitpid(pid, nil, WNOHANG) == 0 {
            kill(-pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
    }

    /// Seconds since the start.
    var clock: Double { monotonicSeconds() - started }

    /// Waits for a line of standard output that contains `text` (10 s at most) and returns it.
    @discardableResult
    func waitForLine(containing text: String, timeLimit: Double = 10) -> String? {
        let deadline = monotonicSeconds() + timeLimit
        while monotonicSeconds() < deadline {
            if let line = stdoutLines.first(where: { $0.contains(text) }) { return line }
            // Standard output closed: the program has ended (not reaped here: `wait` wants its status).
            if output.isFinished { break }
            usleep(2_000)
        }
        return stdoutLines.first { $0.contains(text) }
    }

    /// Lets the program run for `seconds`.
    func sleep(seconds: Double) {
        usleep(useconds_t(seconds * 1_000_000))
    }

    /// Types each key `after` seconds from now, and returns the recording's length (in frames) at
    /// the moment before each was typed.
    func typeAt(_ keys: [(after: Double, key: String)], take: Take) -> [Int] {
        let origin = monotonicSeconds()
        var frames: [Int] = []
        for (after, key) in keys {
            let wait = origin + after - monotonicSeconds()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            frames.append(take.framesSoFar)
            typedAt.append(clock)
            type(key)
        }
        return frames
    }

    /// Writes `text` to the program's standard input at once.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        // A program that has exited makes the write fail with EPIPE and raise SIGPIPE, which would
        // end the test runner: block SIGPIPE on this thread for the write, and take it if it came.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if written < 0, errno == EPIPE {
            var immediately = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &immediately)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the program to end (killing its process group after `timeLimit` seconds), then
    /// closes its standard input and reads its output to the end.
    func wait(timeLimit: Double) -> Exit {
        let deadline = monotonicSeconds() + timeLimit
        var status: Int32 = 0
        var timedOut = false
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0, errno != EINTR { break }
            if monotonicSeconds() > deadline, !timedOut {
                timedOut = true
                kill(-pid, SIGKILL)
            }
            usleep(1_000)
        }
        let elapsed = clock
        if input >= 0 {
            close(input)
            input = -1
        }
        output.waitForEnd()
        errors.waitForEnd()
        let signaled = status & 0x7F != 0 && status & 0x7F != 0x7F
        return Exit(
            status: signaled ? status & 0x7F : (status >> 8) & 0xFF, signal: signaled ? status & 0x7F : nil,
            timedOut: timedOut, elapsed: elapsed)
    }

    /// The lines of standard error but the underruns `--verbose` reports (as they happen, and
    /// their count at the end): each test checks the sound against the count instead.
    /// Standard error but what `--verbose` says of a run that goes well: its underruns, and that
    /// the media keys are off (the tests run without a session bus).
    var problems: [String] {
        stderrLines.filter { !$0.contains("output underruns:") && !$0.contains("output underrun at") && !$0.contains("media keys (MPRIS) are off") }
    }

    /// The output underruns `--verbose` reported, if it did.
    var underruns: Int? {
        stderrLines.lazy.compactMap { $0.split(separator: "output underruns:").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }.first
    }

    var stdout: String { output.text }
    var stderr: String { errors.text }
    var stdoutLines: [String] { Self.lines(stdout) }
    var stderrLines: [String] { Self.lines(stderr) }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Everything about the run, for a failing expectation's message.
    func report(_ exit: Exit) -> String {
        var ending = exit.signal.map { "was killed by signal \($0)" } ?? "exited with status \(exit.status)"
        if exit.timedOut { ending += " (time limit)" }
        return """
            `\(commandLine)` \(ending) after \(String(format: "%.2f", exit.elapsed)) s
            --- standard output ---
            \(stdout)
            --- standard error ---
            \(stderr)
            ---
            """
    }
}

/// Reads a pipe to its end on a thread of its own; what came so far can be read at any time.
private final class StreamReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    lock.withLock { data.append(contentsOf: buffer[..<count]) }
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(descriptor)
            lock.withLock { finished = true }
            done.signal()
        }
        thread.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    var isFinished: Bool { lock.withLock { finished } }

    func waitForEnd() {
        done.wait()
        done.signal()
    }
}

/// A Unix socket that accepts connections and never answers: a server that hangs.
private final class SilentSocket {
    private var descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard descriptor >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw PulseAudioServer.Failure("cannot make a socket at \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { target in
            for (index, byte) in bytes.enumerated() { target[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            throw PulseAudioServer.Failure("cannot listen at \(path): \(String(cString: strerror(errno)))")
        }
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}
