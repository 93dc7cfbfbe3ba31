import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// smfplay in shell pipelines (`smfplay render song.mid -o - | ffmpeg -i - song.opus`,
/// `curl … | smfplay info -`), run through `/bin/sh` as a person types them: the audio streamed
/// to standard output holds what a file render holds, a reader that stops early ends smfplay as
/// it ends `cat`, and a song piped in reads as its file does.
@Suite("smfplay in pipes: -o - streams the audio, - reads the song from standard input")
struct PipeCommandTests {
    /// `Fixtures.fast` for a shell's command line (the SoundFont's path has no space).
    static let fast = Fixtures.fast.joined(separator: " ")

    init() throws {
        try Fixtures.requireSoundFont()
    }

    // MARK: Audio to standard output

    @Test("-o - writes WAV whose samples are the file render's, bit for bit, with a header whose sizes are left open", arguments: ["16", "32f"])
    func wavStreamMatchesFile(bits: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let reference = try sandbox.run(["render", "song.mid", "-o", "reference.wav", "--bits", bits] + Fixtures.fast)
        try #require(reference.succeeded, "\(reference)")

        let piped = try ShellPipeline.run("\"$SMFPLAY\" render song.mid -o - --bits \(bits) \(Self.fast) | cat", in: sandbox)
        #expect(piped.status == 0, "\(piped)")
        // Nothing but audio on standard output: the file's line and the summary go to standard error.
        #expect(piped.stderrLines.first == "standard output (0:02.0)", "\(piped)")
        #expect(piped.stderrLines.last?.hasPrefix("rendered 1 file in ") == true && piped.stderrLines.count == 2, "\(piped)")
        let stream = try sandbox.write(sandbox.root + "/stream.wav", Array(piped.standardOutput))
        #expect(Array(piped.standardOutput.prefix(8)) == Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF], "the RIFF size of a stream is unknown")

        let expected = try AudioFacts(path: sandbox.path("reference.wav"))
        let streamed = try AudioFacts(path: stream)
        #expect(streamed.format == .wav && streamed.encoding == expected.encoding, "\(streamed)")
        #expect(streamed.frameCount == expected.frameCount && streamed.sampleRate == 44_100, "\(streamed) against \(expected)")
        #expect(try Self.samples(stream) == Self.samples(sandbox.path("reference.wav")), "the stream's samples differ from the file's")
        #expect(sandbox.files() == ["reference.wav", "song.mid"], "-o - left a file behind")
    }

    /// Each against a file of its format (raw against WAV): libsndfile scales floats to FLAC's
    /// integers otherwise than to WAV's.
    @Test("FLAC and raw streams hold the file render's samples; Ogg Vorbis and Opus its length", arguments: ["flac", "raw", "ogg", "opus"])
    func otherStreams(format: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let referenceName = "reference." + (format == "raw" ? "wav" : format)
        let reference = try sandbox.run(["render", "song.mid", "-o", referenceName] + Fixtures.fast)
        try #require(reference.succeeded, "\(reference)")
        let expected = try Self.samples(sandbox.path(referenceName))

        let piped = try ShellPipeline.run("\"$SMFPLAY\" render song.mid -o - --format \(format) \(Self.fast) | cat", in: sandbox)
        #expect(piped.status == 0 && piped.stderrLines.first == "standard output (0:02.0)", "\(piped)")
        let bytes = Array(piped.standardOutput)
        switch format {
        case "raw":
            // Headerless 16-bit little-endian samples, as libsndfile reads them back: n / 32768.
            let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
                Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32768
            }
            #expect(samples == expected, "\(samples.count) raw samples against \(expected.count)")
        default:
            let stream = try sandbox.write(sandbox.root + "/stream.\(format)", bytes)
            let facts = try AudioFacts(path: stream)
            #expect(facts.format == AudioFileFormat(fileExtension: format) && facts.frameCount * 2 == expected.count, "\(facts)")
            if format == "flac" { #expect(try Self.samples(stream) == expected, "the FLAC stream's samples differ from the FLAC file's") }
        }
    }

    /// LAME fills its header frame in at the end by going back, which a pipe cannot: the stream
    /// starts with it as it was first written, a silent frame, and lacks what it would say of the
    /// encoder's delay and end padding, which decoders take off a file's ends. The frame, the
    /// delay (1,105 samples) and the padding: more than one frame, less than three (measured: 2,808).
    @Test("an MP3 stream decodes (ffmpeg) to the file's sound, a silent frame, LAME's delay and padding longer")
    func mp3Stream() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let reference = try sandbox.run(["render", "song.mid", "-o", "reference.mp3"] + Fixtures.fast)
        try #require(reference.succeeded, "\(reference)")
        let piped = try ShellPipeline.run("\"$SMFPLAY\" render song.mid -o - --format mp3 \(Self.fast) | cat > stream.mp3", in: sandbox)
        #expect(piped.status == 0, "\(piped)")

        let file = try FFmpegReader.decode(sandbox.path("reference.mp3"))
        let stream = try FFmpegReader.decode(sandbox.path("stream.mp3"))
        let extraFrames = (stream.count - file.count) / 2
        #expect((1_152..<3_456).contains(extraFrames), "the stream decodes to \(extraFrames) frames more than the file")
        let level = FFmpegReader.rmsDecibels(Array(stream.dropFirst(2 * extraFrames)))
        #expect(abs(level - FFmpegReader.rmsDecibels(file)) < 0.1, "\(level) dBFS against the file's \(FFmpegReader.rmsDecibels(file))")
    }

    @Test("sox reads the WAV and FLAC streams from the pipe, to their end", arguments: ["wav", "flac"])
    func soxReadsTheStream(format: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"), "sox is missing: install Debian's sox (make deps)")
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let reference = try sandbox.run(["render", "song.mid", "-o", "reference.\(format)"] + Fixtures.fast)
        try #require(reference.succeeded, "\(reference)")

        let piped = try ShellPipeline.run(
            "\"$SMFPLAY\" render song.mid -o - --format \(format) \(Self.fast) | sox -V1 -t \(format) - -t wav sox.wav",
            in: sandbox)
        #expect(piped.status == 0, "\(piped)")
        #expect(
            try Self.samples(sandbox.path("sox.wav")) == Self.samples(sandbox.path("reference.\(format)")), "sox read other samples than the file's")
    }

    /// Rendered whole before the first byte went out, the audio would arrive at the end.
    @Test("the audio goes out as it renders: the first of 29 MB arrives long before the render ends")
    func streamsAsItRenders() throws {
        let sandbox = try Sandbox()
        try sandbox.write("long.mid", Fixtures.sparseSong(seconds: 900))
        let result = try sandbox.run(["render", "long.mid", "-o", "-", "--format", "raw", "--sample-rate", "8000"] + Fixtures.fast)
        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.standardOutput.count == 900 * 8000 * 4, "\(result.standardOutput.count) bytes")
        let first = try #require(result.arrivalOfStandardOutput(byte: 0), "no audio came")
        #expect(first < result.standardOutputEnd / 3, "the first byte came at \(first) s, the last at \(result.standardOutputEnd) s")
    }

    /// As `cat` ends: SIGPIPE, at its default, ends smfplay when it writes to the closed pipe; the
    /// shell reports 128 + 13.
    @Test("a reader that stops early (| head -c 1000) ends smfplay by SIGPIPE: status 141, nothing on standard error, no file left")
    func closedPipeEndsQuietly() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let status = sandbox.root + "/render-status"
        let piped = try ShellPipeline.run(
            "{ \"$SMFPLAY\" render song.mid -o - \(Self.fast) 2> \"$ERRORS\"; echo $? > \"$STATUS\"; } | head -c 1000",
            in: sandbox, environment: ["ERRORS": sandbox.root + "/render-errors", "STATUS": status])
        #expect(piped.standardOutput.count == 1000, "\(piped)")
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "141\n", "\(piped)")
        #expect(try String(contentsOfFile: sandbox.root + "/render-errors", encoding: .utf8) == "", "smfplay said something")
        #expect(sandbox.files() == ["song.mid"], "something was left behind")
    }

    // MARK: The song from standard input

    @Test("cat song.mid | smfplay info - prints what smfplay info song.mid prints, under the name standard input")
    func infoFromStandardInput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4, title: "Piped"))
        let direct = try sandbox.run(["info", "song.mid"])
        try #require(direct.succeeded, "\(direct)")
        let piped = try ShellPipeline.run("cat song.mid | \"$SMFPLAY\" info -", in: sandbox)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
        #expect(piped.stdoutLines.first == "standard input", "\(piped.stdoutLines)")
        #expect(Array(piped.stdoutLines.dropFirst()) == Array(direct.stdoutLines.dropFirst()), "\(piped.stdoutLines) against \(direct.stdoutLines)")
        #expect(direct.stdoutLines.contains { $0.contains("Piped") }, "the report shows the song's title")
    }

    @Test("cat song.mid | smfplay render - -o out.wav renders what the file renders; - -o - streams it")
    func renderFromStandardInput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let reference = try sandbox.run(["render", "song.mid", "-o", "reference.wav"] + Fixtures.fast)
        try #require(reference.succeeded, "\(reference)")
        let expected = try Self.samples(sandbox.path("reference.wav"))

        let toFile = try ShellPipeline.run("cat song.mid | \"$SMFPLAY\" render - -o out.wav \(Self.fast)", in: sandbox)
        #expect(toFile.status == 0 && toFile.stderr.isEmpty, "\(toFile)")
        #expect(toFile.stdoutLines.first == "out.wav (0:02.0)", "\(toFile)")
        #expect(try Self.samples(sandbox.path("out.wav")) == expected, "the piped song sounds otherwise")

        let both = try ShellPipeline.run("cat song.mid | \"$SMFPLAY\" render - -o - \(Self.fast) | cat", in: sandbox)
        #expect(both.status == 0, "\(both)")
        let stream = try sandbox.write(sandbox.root + "/stream.wav", Array(both.standardOutput))
        #expect(try Self.samples(stream) == expected, "the piped song streamed otherwise")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        /// How the shell makes it.
        var source: String
        var message: String
        var testDescription: String { name }
    }

    static let badInputs = [
        BadInput(
            name: "garbage", source: "cat noise.bin",
            message: "standard input: \(MIDIFileSignature.mismatch)"),
        BadInput(name: "empty", source: "cat /dev/null", message: "standard input: empty, not a MIDI file"),
        BadInput(name: "ends early", source: "cat truncated.mid", message: "standard input: \(Fixtures.truncatedEventMessage)"),
        BadInput(
            name: "over 256 MB", source: "head -c \((256 << 20) + 1) /dev/zero",
            message: "standard input: more than 256 MB, more than a MIDI file may have here"),
    ]

    @Test(
        "what is not a MIDI file on standard input gets one line naming standard input, status 1, as a file does",
        arguments: badInputs, [["info", "-"], ["render", "-", "-o", "out.wav"] + Fixtures.fast, ["play", "-", "--soundfont", Fixtures.soundFont]])
    func badStandardInput(_ input: BadInput, command: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("noise.bin", Fixtures.noise(count: 2000))
        try sandbox.write("truncated.mid", Fixtures.truncatedEvent)
        // No sound server: play must give up on the song before it looks for one.
        let piped = try ShellPipeline.run(
            "\(input.source) | \"$SMFPLAY\" \(command.joined(separator: " "))", in: sandbox,
            environment: ["PULSE_SERVER": "unix:/nonexistent"])
        #expect(piped.status == 1, "\(piped)")
        #expect(piped.stderrLines == ["smfplay: " + input.message], "\(piped)")
        #expect(!sandbox.exists("out.wav"))
    }

    @Test("a terminal as standard input is refused for -, with a message saying to pipe a file in")
    func terminalIsRefused() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script is missing: install Debian's bsdutils")
        let sandbox = try Sandbox()
        // script(1) runs the command on a terminal of its own.
        let result = try ShellPipeline.run("script -qec '\"$SMFPLAY\" info -' /dev/null", in: sandbox)
        #expect(result.status == 1, "\(result)")
        let output = String(decoding: result.standardOutput, as: UTF8.self)
        #expect(output.contains("smfplay: standard input: a terminal, not a pipe: - reads a MIDI file piped into smfplay"), "\(output)")
    }

    @Test("a terminal as standard output is refused for -o -: no audio is written onto it")
    func terminalOutputIsRefused() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script is missing: install Debian's bsdutils")
        let sandbox = try Sandbox()
        try sandbox.write("x.mid", Fixtures.song())
        let result = try ShellPipeline.run("script -qec '\"$SMFPLAY\" render x.mid -o -' /dev/null", in: sandbox)
        let output = String(decoding: result.standardOutput, as: UTF8.self)
        #expect(result.status == 64, "\(result) \(output)")
        #expect(output.contains("smfplay: standard output is a terminal: give an audio file to write, or send -o - into a pipe"), "\(output)")
        #expect(!output.contains("RIFF"), "\(output)")
    }

    // MARK: Refused

    struct Refusal: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let refusals = [
        Refusal(arguments: ["-"], message: "-o is needed when the song comes from standard input"),
        Refusal(arguments: ["-", "song.mid", "-o", "out"], message: "- (standard input) renders alone"),
        Refusal(arguments: ["-", "-o", "Songs/"], message: "-o Songs/: name an audio file"),
        Refusal(arguments: ["song.mid", "-o", "-", "--format", "aiff"], message: "aiff cannot stream to -o -"),
        Refusal(arguments: ["Songs", "-o", "-"], message: "-o - streams one song"),
        Refusal(arguments: ["song.mid", "Songs/other.mid", "-o", "-"], message: "-o - streams one song"),
        Refusal(arguments: ["song.mid", "-o", "-", "--normalize"], message: "--normalize needs the whole render before its first sample"),
        Refusal(arguments: ["song.mid", "-o", "-", "--normalize-peak"], message: "--normalize-peak needs the whole render before its first sample"),
        Refusal(arguments: ["song.mid", "-o", "-", "--json"], message: "--json prints to standard output"),
        Refusal(arguments: ["song.mid", "-o", "song.raw", "--format", "raw"], message: "--format raw writes headerless samples for a pipe"),
    ]

    @Test("what a pipe cannot do is a usage error, status 64, before any work", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write("Songs/other.mid", Fixtures.song())
        let result = try sandbox.run(["render"] + refusal.arguments + Fixtures.fast)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("Error: " + refusal.message) == true, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(sandbox.files() == ["Songs/other.mid", "song.mid"], "something was written")
    }

    @Test("a configuration whose format cannot stream (aiff) is refused for -o -, naming it; --format overrides it")
    func configuredFormatThatCannotStream() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.writeUserConfiguration("format = \"aiff\"\n")
        let refused = try sandbox.run(["render", "song.mid", "-o", "-"] + Fixtures.fast)
        #expect(refused.status == 64 && refused.standardOutput.isEmpty, "\(refused)")
        #expect(
            refused.stderrLines == [
                "smfplay: aiff (the configuration's format) cannot stream to -o -: give --format wav, flac, ogg, mp3, opus or raw"
            ],
            "\(refused)")
        let streamed = try sandbox.run(["render", "song.mid", "-o", "-", "--format", "flac"] + Fixtures.fast)
        #expect(streamed.succeeded && streamed.standardOutput.starts(with: Array("fLaC".utf8)), "\(streamed.stderr)")
    }

    /// Every sample of an audio file, interleaved, as libsndfile reads it.
    static func samples(_ path: String) throws -> [Float] {
        let reader = try AudioFileReader(path: FilePath(path))
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * reader.channels)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if frames == 0 { return samples }
            samples += buffer[..<(frames * reader.channels)]
        }
    }
}
