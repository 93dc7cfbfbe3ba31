import AudioOutput
import Foundation
import TestSupport
import Testing

/// The configuration file as `smfplay render` uses it: the user's file, `--config`, command-line
/// options over both, and the messages for a file it cannot use.
@Suite("smfplay render: configuration")
struct ConfigurationCommandTests {
    @Test("sample_rate in $XDG_CONFIG_HOME/smfplay/config.toml is used; --sample-rate overrides it")
    func userConfiguration() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.writeUserConfiguration("# mine\nsample_rate = 22050\n")

        let configured = try sandbox.run(["render", "song.mid", "-o", "configured.wav"] + Fixtures.fast)
        #expect(configured.succeeded, "\(configured)")
        #expect(try AudioFacts(path: sandbox.path("configured.wav")).sampleRate == 22_050)

        let overridden = try sandbox.run(["render", "song.mid", "-o", "overridden.wav", "--sample-rate", "48000"] + Fixtures.fast)
        #expect(overridden.succeeded, "\(overridden)")
        #expect(try AudioFacts(path: sandbox.path("overridden.wav")).sampleRate == 48_000)
    }

    @Test("--config FILE is read instead of the user's file")
    func configOption() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.writeUserConfiguration("sample_rate = 22050\n")
        try sandbox.write("settings/render.toml", text: "sample_rate = 16000\nbits = \"24\"\n")
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--config", "settings/render.toml"] + Fixtures.fast)
        #expect(result.succeeded, "\(result)")
        let audio = try AudioFacts(path: sandbox.path("song.wav"))
        #expect(audio.sampleRate == 16_000, "\(audio)")
        #expect(audio.encoding == .pcm24, "\(audio)")
    }

    @Test("the configuration's bits that the output cannot store: the file and the key named, status 1; --bits on the command line is a usage error")
    func configurationBitsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        try sandbox.write("settings/float.toml", text: "bits = \"32f\"\n")
        let configured = try sandbox.run(["render", "song.mid", "-o", "song.flac", "--config", "settings/float.toml"] + Fixtures.fast)
        #expect(configured.status == 1, "\(configured)")
        #expect(
            configured.stderrLines == [
                "smfplay: bits = \"32f\" in settings/float.toml: flac cannot store 32-bit float samples; give --bits 16 or 24, or change it there"
            ], "\(configured)")
        let given = try sandbox.run(["render", "song.mid", "-o", "song.flac", "--bits", "32f"] + Fixtures.fast)
        #expect(given.status == 64 && given.stderr.contains("flac cannot store 32-bit float samples; use --bits 16 or 24"), "\(given)")
        #expect(sandbox.files() == ["settings/float.toml", "song.mid"])
    }

    @Test("--config naming a file that does not exist is an error naming it")
    func missingConfigFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--config", "nowhere.toml"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("nowhere.toml"), "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    /// ArgumentParser reads `--config=` as `--config` with its value still to come: the file after
    /// it would be taken for the configuration (and be missing as the song).
    @Test(
        "an empty --config (--config= FILE, --config \"\", a bare --config=) is a usage error naming the option, whichever command",
        arguments: [
            ["render", "--config=", "song.mid", "-o", "song.wav"],
            ["info", "--config=", "song.mid"],
            ["lyrics", "song.mid", "--config", ""],
            ["play", "--config=", "song.mid"],
            ["index", "--library", "Library", "--config="],
        ])
    func emptyConfigOption(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(arguments + (arguments[0] == "render" ? Fixtures.fast : []))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first == "Error: --config needs a file", "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    /// Any empty `--name=` is an empty value, not a name waiting for the next argument (which
    /// ArgumentParser would take, losing an input): refused with the option named.
    @Test(
        "an empty --name= of any option is refused, and the next argument stays an input",
        arguments: [
            (["info", "--text-encoding=", "song.mid"], "--text-encoding must be auto, utf-8, shift-jis or cp1252, not "),
            (["play", "--latency=", "song.mid"], "'--latency"),
            (["play", "--cores=", "song.mid"], "The value '' is invalid for '--cores <auto|n>': give auto or a number from 1 to 64"),
        ])
    func emptyOptionValues(_ arguments: [String], _ message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let result = try sandbox.run(arguments, environment: ["PULSE_SERVER": "unix:" + sandbox.root + "/nothing"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first?.contains(message) == true, "\(result)")
        // Taken for the value, the song's name would be in the message.
        #expect(result.stderrLines.first?.contains("song.mid") == false, "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    /// A file's text, the line at fault, and the key the message must name.
    @Test(
        "a configuration it cannot use stops the command with path:line and the key",
        arguments: [
            ("# sample rate\nsample_rate = = 3\n", 2, "sample_rate"),
            ("# sample rate\n\nsample_rate = \"fast\"\n", 3, "sample_rate"),
            ("sample_rate = 100\n", 1, "sample_rate"),
            ("gain = 0.2\n[reverb]\nlevel = 5\n", 3, "reverb.level"),
            ("sample_rte = 22050\n", 1, "sample_rte"),
            ("[chorus]\nvoices = [3\n", 2, "chorus.voices"),
        ])
    func unusableConfiguration(_ text: String, _ line: Int, _ key: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        let file = try sandbox.writeUserConfiguration(text)
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav"] + Fixtures.fast)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let message = result.stderrLines.first ?? ""
        #expect(message.hasPrefix("smfplay: \(file):\(line):"), "\(result)")
        #expect(message.contains("'\(key)'"), "the message should name the key '\(key)': \(result)")
        #expect(sandbox.files() == ["song.mid"])
    }
}
