import AudioOutput
import Foundation
import SMF
import SoundComparison
import SystemPackage
import TestSupport
import Testing

/// `--transpose`, `--tempo`, `--mute`, `--solo`, `--loops`, `--fade` and `--seek` as a user types
/// them: bad values refused before anything plays, and `render` doing what they say, by sound.
@Suite struct PerformanceOptionTests {
    @Test(
        "a value out of range is a usage error (status 64) naming the option and the value",
        arguments: [
            (["render", "x.mid", "--transpose", "25"], "--transpose must be from -24 to 24 semitones, not 25"),
            (["render", "x.mid", "--transpose", "-25"], "--transpose must be from -24 to 24 semitones, not -25"),
            (["render", "x.mid", "--tempo", "5"], "--tempo must be from 0.25 to 4, not 5"),
            (["render", "x.mid", "--mute", "0"], "The value '0' is invalid for '--mute <channels>': give channels 1-16 separated by commas"),
            (["render", "x.mid", "--solo", "1,x"], "The value '1,x' is invalid for '--solo <channels>': give channels 1-16 separated by commas"),
            (
                ["render", "x.mid", "--loops=-1"],
                "The value '-1' is invalid for '--loops <count>': give a whole number from 0 to 1000, inf, or marked"
            ),
            (["render", "x.mid", "--loops", "inf"], "--loops inf would never end a render: give a number of loops"),
            (["render", "x.mid", "--fade", "61"], "--fade must be from 0 to 60 seconds, not 61"),
            (["play", "x.mid", "--seek", "0:1"], "The value '0:1' is invalid for '--seek <bar:beat>': give bar:beat (from 1:1) or seconds"),
            (["play", "x.mid", "--seek", "2:1", "--start", "3"], "--start and --seek both say where to start: give one"),
        ])
    func badValuesAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    /// A flute melody with drums on channel 10, its melody `shift` semitones up.
    static func song(shift: UInt8 = 0, loopMarks: [String] = []) -> [UInt8] {
        var events: [(tick: UInt32, message: MIDIMessage)] = [(0, .programChange(channel: 0, program: 73))]
        for (index, mark) in loopMarks.enumerated() { events.append((UInt32(480 * (3 - 2 * index)), .meta(.text(.marker, Array(mark.utf8))))) }
        for step in 0..<8 {
            let tick = UInt32(step * 240)
            events.append((tick, .noteOn(channel: 0, note: 72 + UInt8(step % 5) + shift, velocity: 100)))
            events.append((tick, .noteOn(channel: 9, note: step % 2 == 0 ? 36 : 38, velocity: 100)))
            events.append((tick + 220, .noteOff(channel: 0, note: 72 + UInt8(step % 5) + shift, velocity: 0)))
            events.append((tick + 220, .noteOff(channel: 9, note: step % 2 == 0 ? 36 : 38, velocity: 0)))
        }
        var track = Track()
        // Stable: at one tick the events keep the order written above.
        for event in events.enumerated().sorted(by: { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }) {
            track.append(event.element.message, atTick: event.element.tick)
        }
        track.append(.meta(.endOfTrack), atTick: 1920)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    func render(_ sandbox: Sandbox, _ input: String, _ extra: [String] = []) throws -> (samples: [Float], result: Command.Result) {
        let output = input + "-" + extra.joined(separator: "_").replacingOccurrences(of: "-", with: "") + ".wav"
        let result = try sandbox.run(["render", input, "-o", output, "--bits", "32f", "--soundfont", Fixtures.soundFont] + extra)
        try #require(result.succeeded, "\(result)")
        return (try AudioFileReader(path: FilePath(sandbox.path(output))).readAll(), result)
    }

    @Test("render --transpose 12 sounds like the melody written an octave up, and not like the song as written")
    func renderTransposes() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        try sandbox.write("up.mid", Self.song(shift: 12))
        let transposed = try render(sandbox, "song.mid", ["--transpose", "12"]).samples
        let alike = SoundComparison(candidate: transposed, reference: try render(sandbox, "up.mid").samples, sampleRate: 44_100)
        #expect(alike.mismatches().isEmpty, "\(alike.mismatches())")
        let unlike = SoundComparison(candidate: transposed, reference: try render(sandbox, "song.mid").samples, sampleRate: 44_100)
        #expect(!unlike.mismatches().isEmpty, "the transposed render sounds like the song as written: the test could not fail")
        // And back down, as typed with a minus sign.
        let down = try render(sandbox, "up.mid", ["--transpose", "-12"]).samples
        let back = SoundComparison(candidate: down, reference: try render(sandbox, "song.mid").samples, sampleRate: 44_100)
        #expect(back.mismatches().isEmpty, "\(back.mismatches())")
    }

    @Test("info says whether a song loops: where, and by which marks; or that it has none, so --loops does nothing")
    func infoSaysWhetherASongLoops() throws {
        let sandbox = try Sandbox()
        // loopStart at tick 1440 (1.5 s), loopEnd at tick 480 (0.5 s): no loop; loopStart alone: to the end (2 s).
        try sandbox.write("marked.mid", Self.song(loopMarks: ["loopStart"]))
        try sandbox.write("plain.mid", Self.song())
        // EMIDI's marks, 0.5 s to 1.5 s, the start asking for three passes.
        var track = Track()
        track.append(.controlChange(channel: 0, controller: 116, value: 3), atTick: 480)
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 480)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 1400)
        track.append(.controlChange(channel: 0, controller: 117, value: 127), atTick: 1440)
        track.append(.meta(.endOfTrack), atTick: 1920)
        try sandbox.write(
            "emidi.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        let result = try sandbox.run(["info", "marked.mid", "plain.mid", "emidi.mid"])
        #expect(result.succeeded, "\(result)")
        #expect(
            result.stdoutLines.contains("  Loop       0:00.5 to 0:01.5 (controllers 116/117, EMIDI/XMI, 3 passes marked)"), "\(result)")
        #expect(result.stdoutLines.contains("  Loop       0:01.5 to 0:02.0 (loopStart/loopEnd markers)"), "\(result)")
        #expect(
            result.stdoutLines.contains("  Loop       none (no loop marks in any convention)"), "\(result)")
    }

    /// A melody whose loop (0.5 s to 1.5 s) EMIDI's controllers mark, the start asking for `passes` (0: for ever).
    static func emidiSong(passes: UInt8) -> [UInt8] {
        var track = Track()
        track.append(.programChange(channel: 0, program: 73), atTick: 0)
        for step in 0..<8 {
            let tick = UInt32(step * 240)
            if tick == 480 { track.append(.controlChange(channel: 0, controller: 116, value: passes), atTick: tick) }
            if tick == 1440 { track.append(.controlChange(channel: 0, controller: 117, value: 127), atTick: tick) }
            track.append(.noteOn(channel: 0, note: 72 + UInt8(step % 5), velocity: 100), atTick: tick)
            track.append(.noteOff(channel: 0, note: 72 + UInt8(step % 5), velocity: 0), atTick: tick + 200)
        }
        track.append(.meta(.endOfTrack), atTick: 1920)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    @Test(
        "render --loops marked plays a loop as many times as its mark says (3: as --loops 2); one marked for ever once more (as --loops 1), and ends")
    func loopsAsMarked() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("three.mid", Self.emidiSong(passes: 3))
        try sandbox.write("forever.mid", Self.emidiSong(passes: 0))
        let marked = try render(sandbox, "three.mid", ["--loops", "marked"]).samples
        #expect(marked == (try render(sandbox, "three.mid", ["--loops", "2"]).samples), "three passes as marked are not two extra")
        #expect(marked != (try render(sandbox, "three.mid", ["--loops", "1"]).samples))
        let forever = try render(sandbox, "forever.mid", ["--loops", "marked"]).samples
        #expect(forever == (try render(sandbox, "forever.mid", ["--loops", "1"]).samples), "a loop marked for ever is not played once more")
    }

    @Test(
        "loops = \"marked\" in the configuration and in a folder's settings renders as --loops marked: a loop as many times as its mark says, one marked for ever once more"
    )
    func loopsAsMarkedInSettings() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("three.mid", Self.emidiSong(passes: 3))
        try sandbox.write("forever.mid", Self.emidiSong(passes: 0))
        try sandbox.write("Game/.smfplay.toml", Array("loops = \"marked\"\n".utf8))
        try sandbox.write("Game/three.mid", Self.emidiSong(passes: 3))
        try sandbox.write("Game/forever.mid", Self.emidiSong(passes: 0))
        try sandbox.write("marked.toml", Array("loops = \"marked\"\n".utf8))
        let threeMarked = try render(sandbox, "three.mid", ["--loops", "2"]).samples
        let foreverOnceMore = try render(sandbox, "forever.mid", ["--loops", "1"]).samples
        #expect(threeMarked != (try render(sandbox, "three.mid").samples), "the test could not fail: the mark's passes sound as the song written")

        #expect(try render(sandbox, "three.mid", ["--config", "marked.toml"]).samples == threeMarked, "the configuration's loops = \"marked\"")
        #expect(try render(sandbox, "forever.mid", ["--config", "marked.toml"]).samples == foreverOnceMore)
        #expect(try render(sandbox, "Game/three.mid").samples == threeMarked, "the folder's loops = \"marked\"")
        #expect(try render(sandbox, "Game/forever.mid").samples == foreverOnceMore, "a folder's mark for ever, in a render, once more")
        // The command line wins over the folder's settings.
        #expect(try render(sandbox, "Game/three.mid", ["--loops", "0"]).samples == (try render(sandbox, "three.mid").samples))
    }

    @Test("render --loops 1 of a song without loop marks: rendered as written, with a warning that says so")
    func unmarkedSongWarns() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("plain.mid", Self.song())
        let (_, result) = try render(sandbox, "plain.mid", ["--loops", "1"])
        #expect(result.stderr.contains("plain.mid: warning: \(SongLoop.noMarks)"), "\(result)")
    }

    @Test("render --loops 1 of a file whose loopEnd comes before its loopStart: rendered as written, with a warning naming the file")
    func badLoopMarksWarn() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        // loopStart at tick 1440, loopEnd at tick 480.
        try sandbox.write("bad.mid", Self.song(loopMarks: ["loopStart", "loopEnd"]))
        let (looped, result) = try render(sandbox, "bad.mid", ["--loops", "1"])
        #expect(
            result.stderr.contains("bad.mid: warning: its loopEnd marker (0:00.50) comes before its loopStart (0:01.50): played as written"),
            "\(result)")
        let asWritten = try render(sandbox, "bad.mid").samples
        #expect(looped.count == asWritten.count)
    }
}
