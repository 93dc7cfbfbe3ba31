import Foundation
import SMF
import TestSupport
import Testing

/// The sound server going away under `smfplay play`: killed mid-song and started again on the same
/// socket, as a desktop's server is when it is updated or restarted; or killed for good.
@Suite("smfplay play: the sound server restarting", .serialized)
struct ReconnectCommandTests {
    /// A flute climbing a whole tone every half second from middle C: where it is heard tells the
    /// place in the song, to a few hundredths of a second.
    static let noteSeconds = 0.5
    static let noteCount = 20

    static func ladder() -> [UInt8] {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        track.append(.programChange(channel: 0, program: 73), atTick: 0)
        for index in 0..<noteCount {
            let key = UInt8(60 + 2 * index)
            track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: UInt32(index * 480))
            track.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: UInt32(index * 480 + 470))
        }
        track.append(.meta(.endOfTrack), atTick: UInt32(noteCount * 480))
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    /// The ladder's note (0 for middle C) sounding in each 20 ms step of `sound`, from its pitch;
    /// nil for silence or a pitch between the ladder's.
    static func notes(in sound: Sound) -> [Int?] {
        let step = Take.frames(0.02)
        return stride(from: 0, to: sound.audio.frameCount - 2 * step, by: step).map { start in
            let window = start..<(start + 2 * step)
            guard sound.rms(window) > 0.003 else { return nil }
            let frequency = sound.audio.frequency(in: window)
            guard frequency > 0 else { return nil }
            let steps = (12 * log2(frequency / 440) + 69 - 60) / 2
            return abs(steps - steps.rounded()) < 0.2 ? Int(steps.rounded()) : nil
        }
    }

    /// The runs of one note over 3 steps or more, in order: a note's attack reads as another
    /// pitch for a step or two.
    static func steadyRuns(_ notes: [Int?]) -> [(note: Int, steps: Range<Int>)] {
        var runs: [(note: Int, steps: Range<Int>)] = []
        var start = 0
        while start < notes.count {
            var end = start + 1
            while end < notes.count, notes[end] == notes[start] { end += 1 }
            if let note = notes[start], end - start >= 3 { runs.append((note, start..<end)) }
            start = end
        }
        return runs
    }

    /// The place in the song (seconds) where `notes` stop: the last note heard, from the end of
    /// the one before it to the last sound.
    static func placeWhereItStops(_ notes: [Int?]) -> Double? {
        let runs = steadyRuns(notes)
        guard let last = runs.last, let lastSound = notes.lastIndex(where: { $0 != nil }) else { return nil }
        let onset = runs.dropLast().last.map { $0.note == last.note - 1 ? $0.steps.upperBound : last.steps.lowerBound } ?? last.steps.lowerBound
        return Double(last.note) * noteSeconds + Double(lastSound + 1 - onset) * 0.02
    }

    /// The place in the song (seconds) where `notes` start: the first note heard, less what was
    /// heard of it before the next one.
    static func placeWhereItStarts(_ notes: [Int?]) -> Double? {
        let runs = steadyRuns(notes)
        guard runs.count > 1, let firstSound = notes.firstIndex(where: { $0 != nil }), runs[1].note == runs[0].note + 1 else { return nil }
        return Double(runs[0].note + 1) * noteSeconds - Double(runs[1].steps.lowerBound - firstSound) * 0.02
    }

    /// With a 2 s output buffer (the server fills about half of it), a player that went on from
    /// where its rendering had got to, not from what was heard, would skip a second of the song
    /// (measured: went on 0.98 s after where it stopped).
    @Test(
        "killed 4 s in and started again 2 s later on the same socket, the server hears the song go on within 0.5 s of where it stopped, with a 2 s output buffer"
    )
    func serverRestarts() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer(sampleRate: Take.sampleRate)
        let sandbox = try Sandbox()
        try sandbox.write("ladder.mid", Self.ladder())
        let before = try Take(server)
        let player = try PlayingCommand(
            sandbox, ["play", "ladder.mid", "--soundfont", Fixtures.soundFont, "--latency", "2000", "--loudness", "off", "--no-mpris"],
            server: server)
        player.sleep(seconds: 4)
        server.crash()
        let (lost, _) = try before.finish()
        player.sleep(seconds: 2)
        let after = Take(recording: try server.restart())
        let exit = player.wait(timeLimit: 30)
        let (resumed, _) = try after.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(player.stderr.contains("sound server gone, reconnecting"), "\(player.stderr)")
        #expect(player.stderr.contains("sound server back"), "\(player.stderr)")

        let stopped = try #require(Self.placeWhereItStops(Self.notes(in: lost)), "nothing of the ladder before the crash")
        let started = try #require(Self.placeWhereItStarts(Self.notes(in: resumed)), "nothing of the ladder after the restart")
        #expect(stopped > 3 && stopped < 4.5, "stopped at \(stopped) s, 4 s in")
        #expect(abs(started - stopped) <= 0.5, "stopped at \(stopped) s, went on at \(started) s")
        // The rest of the song: the ladder to its top.
        #expect(Self.notes(in: resumed).compactMap { $0 }.max() == Self.noteCount - 1)
    }

    @Test("with no server coming back, play gives up after reconnect_timeout, saves its place and exits with status 69")
    func serverStaysGone() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer(sampleRate: Take.sampleRate)
        let sandbox = try Sandbox()
        try sandbox.write("ladder.mid", Self.ladder())
        try sandbox.writeUserConfiguration("[audio]\nreconnect_timeout = 2\n")
        let player = try PlayingCommand(
            sandbox, ["play", "ladder.mid", "--soundfont", Fixtures.soundFont, "--latency", "50", "--loudness", "off", "--no-mpris"],
            server: server)
        player.sleep(seconds: 2)
        server.crash()
        let exit = player.wait(timeLimit: 15)
        #expect(exit.status == 69, "\(player.report(exit))")
        #expect(player.stderr.contains("sound server gone, reconnecting"), "\(player.stderr)")
        #expect(player.stderr.contains("lost the PulseAudio server"), "\(player.stderr)")
        // Given up within the timeout and the time it takes to notice the loss (2 s at most).
        #expect(exit.elapsed < 2 + 2 + 2 + 2, "\(player.report(exit))")
        // Saved where the sound stopped, about 2 s in.
        let saved = try sandbox.savedState()
        #expect(saved.queue.count == 1 && saved.queue[0].hasSuffix("ladder.mid"), "\(saved)")
        #expect(saved.position.seconds > 1.5 && saved.position.seconds < 2.5, "\(saved)")
    }

    @Test("moved to another sink mid-song (a headset connected), the song goes on there where it left the first, without a reconnection")
    func streamMoved() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer(sampleRate: Take.sampleRate)
        try server.addNullSink(named: "headset")
        let sandbox = try Sandbox()
        try sandbox.write("ladder.mid", Self.ladder())
        let speakers = try Take(server)
        let headset = Take(recording: try server.record(sink: "headset"))
        let player = try PlayingCommand(
            sandbox, ["play", "ladder.mid", "--soundfont", Fixtures.soundFont, "--latency", "50", "--loudness", "off", "--no-mpris"],
            server: server)
        player.sleep(seconds: 4)
        try server.moveStreams(to: "headset")
        let exit = player.wait(timeLimit: 30)
        let (before, _) = try speakers.finish()
        let (after, _) = try headset.finish()
        #expect(exit.status == 0 && exit.signal == nil, "\(player.report(exit))")
        #expect(!player.stderr.contains("reconnecting"), "\(player.stderr)")
        let left = try #require(Self.placeWhereItStops(Self.notes(in: before)), "nothing of the ladder before the move")
        let arrived = try #require(Self.placeWhereItStarts(Self.notes(in: after)), "nothing of the ladder after the move")
        #expect(left > 3 && left < 4.5, "left at \(left) s, 4 s in")
        // The first sink's monitor records what the null sink renders ahead of the clock, which the
        // move hands the new sink again: the headset repeats up to a tenth of a second (measured:
        // 0.10). A stream lost and made again would skip or stop for far longer.
        #expect(abs(arrived - left) <= 0.15, "left the speakers at \(left) s, reached the headset at \(arrived) s")
        #expect(Self.notes(in: after).compactMap { $0 }.max() == Self.noteCount - 1)
    }
}
