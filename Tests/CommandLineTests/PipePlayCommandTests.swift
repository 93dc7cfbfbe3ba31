import Foundation
import TestSupport
import Testing

/// `curl … | smfplay play -`: the song from standard input, played through a real PulseAudio
/// server's null sink. Listed with the real-time suites in the Makefile: it listens to the sink.
@Suite("smfplay play -: a song piped in, played", .serialized)
struct PipePlayCommandTests {
    @Test("cat song.mid | smfplay play - plays it to its end, names it standard input, and records nothing for resume")
    func playsFromStandardInput() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let state = sandbox.root + "/state/smfplay/state.sqlite"
        let options = "--soundfont \(Fixtures.soundFont) --no-reverb --no-chorus"

        let recording = try server.record()
        let piped = try ShellPipeline.run("cat song.mid | \"$SMFPLAY\" play - \(options)", in: sandbox, environment: ["PULSE_SERVER": server.address])
        let sound = try recording.stop()
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdoutLines == ["playing 1/1: standard input (0:02.0)"], "\(piped)")
        // Four notes, half a second apart: from the first to the end of the last, 1.9 s.
        let spans = sound.soundingSpans()
        let heard = Double((spans.last?.upperBound ?? 0) - (spans.first?.lowerBound ?? 0)) / Double(sound.sampleRate)
        #expect(heard > 1.5, "\(heard) s of sound reached the sink, in \(spans.count) spans")
        #expect(!FileManager.default.fileExists(atPath: state), "the resume state records a song that cannot be opened again")

        // The same song from its file is recorded: the check above looks where the state goes.
        let played = try ShellPipeline.run("\"$SMFPLAY\" play song.mid \(options)", in: sandbox, environment: ["PULSE_SERVER": server.address])
        #expect(played.status == 0, "\(played)")
        #expect(FileManager.default.fileExists(atPath: state), "playing the file recorded no state at \(state)")
    }

    @Test("no song on standard input, with a file after it: the pipe is named and passed over, the file plays, and the status is 1")
    func aBadPipeIsPassedOver() throws {
        try Fixtures.requireSoundFont()
        let server = try PulseAudioServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 2))
        try sandbox.write("noise.bin", Array("not a MIDI file at all".utf8))
        let options = "--soundfont \(Fixtures.soundFont) --no-reverb --no-chorus"
        let piped = try ShellPipeline.run(
            "cat noise.bin | \"$SMFPLAY\" play - song.mid \(options)", in: sandbox, environment: ["PULSE_SERVER": server.address])
        #expect(piped.status == 1, "\(piped)")
        #expect(piped.stderrLines.first?.hasPrefix("smfplay: standard input: ") == true, "\(piped)")
        #expect(piped.stdoutLines == ["playing 1/1: song.mid (0:01.0)"], "\(piped)")
    }
}
