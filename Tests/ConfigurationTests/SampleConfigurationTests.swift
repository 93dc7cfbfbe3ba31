import AudioOutput
import Configuration
import Foundation
import Synthesis
import SystemPackage
import Testing

/// `Config/smfplay.toml` is the settings' documentation; these tests keep it and the
/// code from drifting apart.
struct SampleConfigurationTests {
    static let samplePath = FilePath(
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/smfplay.toml").path)

    /// Every key the file may hold, as a person writes it.
    static let allKeys = [
        "soundfont", "sidecar_soundfonts", "midi_mode", "sample_rate", "gain", "limiter", "loudness_target", "loudness", "polyphony", "interpolation",
        "tail",
        "loops", "fade", "jobs", "format", "bits", "quality",
        "library", "text_encoding",
        "soundfonts.gm", "soundfonts.gs", "soundfonts.xg", "soundfonts.gm2",
        "reverb.enabled", "reverb.room_size", "reverb.damping", "reverb.width", "reverb.level",
        "chorus.enabled", "chorus.voices", "chorus.level", "chorus.speed", "chorus.depth",
        "audio.latency_ms", "audio.chase_notes", "audio.server", "audio.mpris", "audio.cores", "audio.reconnect_timeout",
    ]

    /// The settings written as `# key = value`, as a person would uncomment them;
    /// examples are indented further and stay comments.
    static func uncommented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("# "), let equals = line.range(of: " = ") else { return String(line) }
            let key = line[line.index(line.startIndex, offsetBy: 2)..<equals.lowerBound]
            let isKey = !key.isEmpty && key.allSatisfy { $0.isLowercase || $0 == "_" }
            return isKey ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
    }

    @Test func shippedFileLoadsAsTheDefaults() throws {
        let configuration = try ConfigurationFile(path: Self.samplePath).load()
        #expect(configuration.render == RenderSettings())
        #expect(configuration.audio == AudioSettings())
        #expect(configuration.library == nil)
        #expect(configuration.path == Self.samplePath)
    }

    @Test func documentedValuesAreTheDefaults() throws {
        let text = try String(contentsOfFile: Self.samplePath.string, encoding: .utf8)
        let settings = Self.uncommented(text)
        #expect(settings != text)
        let configuration = try Configuration(parsing: settings, path: Self.samplePath)
        #expect(configuration.render == RenderSettings())
        #expect(configuration.audio == AudioSettings())
        #expect(configuration.library == nil)
        #expect(configuration.textEncoding == nil)
    }

    @Test func everyKeyIsDocumented() throws {
        let lines = try String(contentsOfFile: Self.samplePath.string, encoding: .utf8).split(separator: "\n")
        var table = ""
        var documented: Set<String> = []
        for line in lines {
            if line.hasPrefix("[") {
                table = String(line.dropFirst().dropLast()) + "."
                continue
            }
            guard line.hasPrefix("#"), let equals = line.range(of: " = ") else { continue }
            let key = line[line.index(after: line.startIndex)..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
            documented.insert(table + key)
        }
        #expect(documented == Set(Self.allKeys))
    }

    @Test func everyKeyOverridesItsDefault() throws {
        let overrides = """
            soundfont = ["/x.sf2", "FluidR3_GM"]
            sidecar_soundfonts = false
            midi_mode = "xg"
            sample_rate = 48000
            gain = 1
            limiter = false
            loudness_target = -23
            loudness = "off"
            polyphony = 64
            interpolation = "sinc"
            tail = 2.5
            loops = "inf"
            fade = 8
            jobs = 3
            format = "flac"
            bits = "24"
            quality = 9.5
            library = "~/Noten/MIDI"
            text_encoding = "shift-jis"
            [soundfonts]
            gs = "SC-55"
            xg = ["/y.sf2", "/x.sf2"]
            [reverb]
            enabled = false
            room_size = 0.6
            damping = 0.4
            width = 10
            level = 0.5
            [chorus]
            enabled = false
            voices = 5
            level = 1.5
            speed = 1
            depth = 4.25
            [audio]
            latency_ms = 120
            chase_notes = true
            server = "tcp:localhost:4713"
            mpris = false
            cores = 3
            reconnect_timeout = 5
            """
        let expected = RenderSettings(
            soundFonts: ["/x.sf2", "FluidR3_GM"], soundFontsByStandard: [.gs: ["SC-55"], .xg: ["/y.sf2", "/x.sf2"]], sidecarSoundFonts: false,
            midiMode: .xg, limiter: false,
            sampleRate: 48000, gain: 1, polyphony: 64, interpolation: .sinc,
            isReverbEnabled: false, reverb: .init(roomSize: 0.6, damping: 0.4, width: 10, level: 0.5),
            isChorusEnabled: false, chorus: .init(voices: 5, level: 1.5, speed: 1, depth: 4.25),
            tail: 2.5, jobs: 3, format: .flac, bits: .pcm24, quality: EncodingQuality(9.5)
        )
        var expectedWithLoops = expected
        expectedWithLoops.loudnessTarget = -23
        expectedWithLoops.loudnessMode = .off
        expectedWithLoops.loops = .forever
        expectedWithLoops.fade = 8
        let configuration = try Configuration(parsing: overrides, path: "x.toml")
        #expect(configuration.render == expectedWithLoops)
        let expectedAudio = AudioSettings(
            latencyMilliseconds: 120, chaseNotes: true, server: "tcp:localhost:4713", mpris: false, cores: 3, reconnectTimeoutSeconds: 5)
        #expect(configuration.audio == expectedAudio)
        #expect(configuration.textEncoding == "shift-jis")
        #expect(configuration.library == "~/Noten/MIDI")
        #expect(Self.unchangedSettings(expectedAudio, AudioSettings()).isEmpty)
        // Every stored setting differs from its default here, so a setting added
        // later without a key in this test (and so in the file) fails it.
        let unchanged = Self.unchangedSettings(expectedWithLoops, RenderSettings())
        #expect(unchanged.isEmpty, "not overridden: \(unchanged)")
    }

    static func unchangedSettings(_ changed: Any, _ original: Any, prefix: String = "") -> [String] {
        let pairs = zip(Mirror(reflecting: changed).children, Mirror(reflecting: original).children)
        return pairs.flatMap { new, old -> [String] in
            let name = prefix + (new.label ?? "?")
            if new.value is SynthesizerSettings.Reverb || new.value is SynthesizerSettings.Chorus {
                return unchangedSettings(new.value, old.value, prefix: name + ".")
            }
            return String(describing: new.value) == String(describing: old.value) ? [name] : []
        }
    }
}
