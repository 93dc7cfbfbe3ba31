import AudioOutput
import Foundation
import SystemPackage
import TestSupport
import Testing

/// `smfplay render` on one MIDI file: where the audio goes, in which format, and what is refused.
@Suite("smfplay render: one file")
struct RenderFileTests {
    struct FormatCase: Sendable, CustomTestStringConvertible {
        var fileExtension: String
        var bits: String?
        var format: AudioFileFormat
        /// nil for the lossy formats, which have no bit depth.
        var encoding: SampleEncoding?
        var sampleRate = 44_100
        var testDescription: String { ".\(fileExtension)" + (bits.map { " --bits \($0)" } ?? "") }
    }

    static let formats = [
        FormatCase(fileExtension: "wav", bits: nil, format: .wav, encoding: .pcm16),
        FormatCase(fileExtension: "wav", bits: "24", format: .wav, encoding: .pcm24),
        FormatCase(fileExtension: "flac", bits: "24", format: .flac, encoding: .pcm24),
        FormatCase(fileExtension: "ogg", bits: nil, format: .ogg, encoding: nil),
        FormatCase(fileExtension: "aiff", bits: "32f", format: .aiff, encoding: .float32),
        FormatCase(fileExtension: "mp3", bits: "24", format: .mp3, encoding: nil),
        // Opus takes 48 kHz, not the default 44.1.
        FormatCase(fileExtension: "opus", bits: nil, format: .opus, encoding: nil, sampleRate: 48_000),
    ]

    @Test("-o song.EXT: the format follows the extension, the bits follow --bits", arguments: formats)
    func formatFromExtension(_ kind: FormatCase) throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 4))
        let output = "song.\(kind.fileExtension)"
        let result = try sandbox.run(["render", "song.mid", "-o", output] + (kind.bits.map { ["--bits", $0] } ?? []) + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines.first == "\(output) (0:02.0)", "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("rendered 1 file in ") == true, "\(result)")
        #expect(result.stdoutLines.count == 2, "\(result)")

        let audio = try AudioFacts(path: sandbox.path(output))
        #expect(audio.format == kind.format, "\(audio)")
        #expect(audio.encoding == kind.encoding, "\(audio)")
        #expect(audio.sampleRate == kind.sampleRate, "\(audio)")
        #expect(audio.channels == 2, "\(audio)")
        #expect((1.9...2.2).contains(audio.seconds), "a 2-second song with no tail: \(audio)")
        #expect(sandbox.files() == [output, "song.mid"].sorted(), "nothing else is left beside it")
    }

    /// The reader gets past a damaged file where it can; the user still hears of it, by name,
    /// even in a quiet batch of thousands.
    @Test("a MIDI file cut short is rendered as far as it goes, with warnings naming it on standard error, --quiet too")
    func damagedFileIsRenderedWithWarnings() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        // Without the End of Track event of its last track (its last 4 bytes).
        try sandbox.write("cut.mid", Array(Fixtures.song(beats: 4).dropLast(4)))
        for quiet in [[], ["--quiet"]] {
            let result = try sandbox.run(["render", "cut.mid", "-o", "cut.wav", "--force"] + quiet + Fixtures.fast)
            #expect(result.succeeded, "\(result)")
            #expect(
                result.stderrLines.count == 2 && result.stderrLines.allSatisfy { $0.hasPrefix("smfplay: cut.mid: warning: track 2 ") },
                "\(result)")
            #expect(result.stderrLines.last?.hasSuffix("has no End of Track event") == true, "\(result)")
            #expect(FileManager.default.fileExists(atPath: sandbox.path("cut.wav")))
        }
    }

    @Test("without -o the audio goes beside the MIDI file; --format chooses it over the configuration's")
    func besideTheMIDIFile() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("Songs/Prélude.mid", Fixtures.song())

        let wav = try sandbox.run(["render", "Songs/Prélude.mid"] + Fixtures.fast)
        #expect(wav.succeeded, "\(wav)")
        #expect(try AudioFacts(path: sandbox.path("Songs/Prélude.wav")).format == .wav)

        try sandbox.writeUserConfiguration("format = \"ogg\"\n")
        let flac = try sandbox.run(["render", "Songs/Prélude.mid", "--format", "flac"] + Fixtures.fast)
        #expect(flac.succeeded, "\(flac)")
        #expect(try AudioFacts(path: sandbox.path("Songs/Prélude.flac")).format == .flac)
        #expect(sandbox.files(under: "Songs") == ["Prélude.flac", "Prélude.mid", "Prélude.wav"])
    }

    @Test("-o FOLDER puts the audio in it, named after the MIDI file, in the --format asked for")
    func intoAFolder() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try FileManager.default.createDirectory(atPath: sandbox.path("Renders"), withIntermediateDirectories: true)
        let result = try sandbox.run(["render", "song.mid", "-o", "Renders", "--format", "aiff"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        #expect(sandbox.files(under: "Renders") == ["song.aiff"])
        #expect(try AudioFacts(path: sandbox.path("Renders/song.aiff")).format == .aiff)
    }

    @Test("-o NEW/ (a folder that does not exist yet, written with its slash) is made and the audio put in it")
    func intoANewFolder() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid", "-o", "Renders/"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        #expect(sandbox.files(under: "Renders") == ["song.wav"], "\(result)")
    }

    @Test("--normalize-peak puts the peak at -1 dBFS and leaves no intermediate file behind")
    func normalizePeak() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 2))
        let result = try sandbox.run(["render", "song.mid", "-o", "song.flac", "--normalize-peak"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        let samples = try AudioFileReader(path: FilePath(sandbox.path("song.flac"))).readAll()
        let peak = samples.reduce(0) { max($0, abs($1)) }
        let expected = Float(pow(10, -1.0 / 20))
        #expect(abs(peak - expected) < 0.002, "peak \(peak), expected \(expected)")
        #expect(sandbox.files() == ["song.flac", "song.mid"])
    }

    @Test(
        "-o naming the MIDI file itself is refused, and the MIDI file is left as it was",
        arguments: [
            ["-o", "song.mid"],
            ["-o", "song.mid", "--format", "wav"],
            ["-o", "./song.mid"],
        ])
    func outputOverTheInput(_ options: [String]) throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let song = Fixtures.song()
        try sandbox.write("song.mid", song)
        let result = try sandbox.run(["render", "song.mid"] + options + Fixtures.fast)
        #expect(!result.succeeded, "\(result)")
        #expect(result.signal == nil)
        #expect(result.stderr.contains("song.mid"), "\(result)")
        #expect(try sandbox.contents("song.mid") == Data(song), "the MIDI file was overwritten")
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test("-o naming one format and --format another is a usage error, instead of WAV bytes in a file named .flac")
    func outputAndFormatDisagree() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid", "-o", "song.flac", "--format", "wav"] + Fixtures.fast)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first == "Error: -o song.flac names a FLAC file, and --format asks for WAV: give one of them", "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test("-o with an extension that is no audio format smfplay writes is refused instead of getting WAV data under that name")
    func unknownOutputExtension() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wma"] + Fixtures.fast)
        #expect(!result.succeeded, "\(result)")
        #expect(result.stderr.contains("wma"), "\(result)")
        #expect(sandbox.files() == ["song.mid"], "\(result)")
    }

    @Test(
        "a bad option value is a usage error that names the option and the value, with render's usage, and writes nothing",
        arguments: [
            (["--format", "wma"], "wma"),
            (["--quality", "11"], "11"),
            (["--quality=-0.5"], "-0.5"),
            (["--format", "opus", "--sample-rate", "44100"], "44100"),
            (["-o", "song.opus", "--sample-rate", "22050"], "22050"),
            (["-o", "song.mp3", "--sample-rate", "96000"], "96000"),
            (["--bits", "12"], "12"),
            (["--sample-rate", "100"], "100"),
            (["--gain", "11"], "11"),
            (["--jobs", "0"], "0"),
            (["--tail=-1"], "-1"),
            (["-o", "song.flac", "--bits", "32f"], "32f"),
        ])
    func badOptionValue(_ options: [String], _ value: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid"] + options + ["--soundfont", Fixtures.soundFont])
        #expect(result.status == 64, "\(result)")
        let option = String(options.last { $0.hasPrefix("--") }!.prefix { $0 != "=" })
        #expect(result.stderr.contains(option), "\(result)")
        #expect(result.stderr.contains(value), "\(result)")
        #expect(!result.stderr.contains("smfplay <subcommand>"), "the usage shown should be render's, not the top command's: \(result)")
        #expect(result.stdout.isEmpty)
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test("the configuration's format and rate: Opus from its 44100 Hz is made at 48000; --sample-rate 44100 is refused, status 64")
    func configuredOpusRate() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.writeUserConfiguration("format = \"opus\"\nsample_rate = 44100\n")
        let made = try sandbox.run(["render", "song.mid", "-o", "Renders/"] + Fixtures.fast)
        #expect(made.succeeded, "\(made)")
        #expect(try AudioFacts(path: sandbox.path("Renders/song.opus")).sampleRate == 48_000)

        let refused = try sandbox.run(["render", "song.mid", "-o", "Other/", "--sample-rate", "44100"] + Fixtures.fast)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("--sample-rate 44100: opus takes 8000, 12000, 16000, 24000 or 48000 Hz"), "\(refused)")
        #expect(!sandbox.exists("Other"))
    }

    @Test("several files without -o: a usage error that shows render's usage")
    func severalFilesWithoutOutput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("a.mid", Fixtures.song())
        try sandbox.write("b.mid", Fixtures.song())
        let result = try sandbox.run(["render", "a.mid", "b.mid", "--soundfont", Fixtures.soundFont])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("-o"), "\(result)")
        #expect(!result.stderr.contains("smfplay <subcommand>"), "the usage shown should be render's, not the top command's: \(result)")
        #expect(sandbox.files() == ["a.mid", "b.mid"])
    }

    @Test("a MIDI file that does not exist: one error naming it, status 1, nothing written")
    func missingInput() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let result = try sandbox.run(["render", "nowhere.mid", "-o", "out.wav"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("nowhere.mid"), "\(result)")
        #expect(sandbox.files().isEmpty, "\(result)")
    }
}
