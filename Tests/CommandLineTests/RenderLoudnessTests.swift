import AudioOutput
import Foundation
import SystemPackage
import TestSupport
import Testing

/// `render` measures the loudness of what it writes, and `--normalize` brings every file to the
/// target: checked by an independent meter (ffmpeg's) on the written files.
struct RenderLoudnessTests {
    /// The JSON object `render --json` printed for one file.
    static func report(_ result: Command.Result) throws -> [String: Any] {
        let line = try #require(result.stdoutLines.first, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("render reports each file's loudness and true peak: the same song at half the gain reads 6.0 LU and dB lower, as ffmpeg reads it")
    func halfTheGain() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", LoudnessSong.file(volume: 100))
        var readings: [(lufs: Double, peak: Double)] = []
        for (gain, name) in [("0.4", "loud.wav"), ("0.2", "quiet.wav")] {
            let result = try sandbox.run(["render", "song.mid", "-o", name, "--gain", gain, "--bits", "32f", "--json"] + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
            let report = try Self.report(result)
            let lufs = try #require(report["loudnessLUFS"] as? Double, "\(report)")
            let peak = try #require(report["truePeakDBTP"] as? Double, "\(report)")
            #expect(report["normalizationGainDecibels"] as? Double == 0)
            let independent = try FFmpegReader.loudness(sandbox.path(name))
            #expect(abs(independent.integratedLUFS - lufs) <= 0.15, "smfplay read \(lufs) LUFS, ffmpeg \(independent)")
            readings.append((lufs, peak))
        }
        #expect(abs(readings[0].lufs - readings[1].lufs - 6.02) <= 0.1, "\(readings)")
        #expect(abs(readings[0].peak - readings[1].peak - 6.02) <= 0.1, "\(readings)")
    }

    @Test("a rendered FLAC file carries ReplayGain's track gain to -18 LUFS and its peak, from what render measured")
    func replayGainTags() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", LoudnessSong.file(volume: 100))
        let result = try sandbox.run(["render", "song.mid", "-o", "song.flac", "--json"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        let report = try Self.report(result)
        let lufs = try #require(report["loudnessLUFS"] as? Double)
        let peak = try #require(report["truePeakDBTP"] as? Double)
        let tags = try FFmpegReader.probe(sandbox.path("song.flac")).tags
        let gain = try #require(tags["REPLAYGAIN_TRACK_GAIN"].flatMap { Double($0.replacingOccurrences(of: " dB", with: "")) }, "\(tags)")
        #expect(abs(gain - (-18 - lufs)) <= 0.01, "gain \(gain) for \(lufs) LUFS")
        let trackPeak = try #require(tags["REPLAYGAIN_TRACK_PEAK"].flatMap(Double.init), "\(tags)")
        #expect(abs(20 * log10(trackPeak) - peak) <= 0.01, "peak \(trackPeak) for \(peak) dBTP")
    }

    /// Songs 10 LU apart, one rendered loud enough for its true peaks to need the limiter.
    @Test(
        "--normalize brings every file within 0.5 LU of the target, true peaks at most -1 dBTP, as ffmpeg reads them; without it they stay 10 LU apart"
    )
    func normalize() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("Songs/loud.mid", LoudnessSong.file(volume: 127))
        try sandbox.write("Songs/quiet.mid", LoudnessSong.file(volume: LoudnessSong.tenBelow))
        let plain = try sandbox.run(["render", "Songs", "-o", "Plain", "-q"] + Fixtures.fast)
        try #require(plain.succeeded, "\(plain)")
        let loud = try FFmpegReader.loudness(sandbox.path("Plain/loud.wav"))
        let quiet = try FFmpegReader.loudness(sandbox.path("Plain/quiet.wav"))
        // What the check below would catch: as the settings render them, the songs are far apart.
        #expect(abs(loud.integratedLUFS - quiet.integratedLUFS - 10) <= 1, "loud \(loud), quiet \(quiet)")

        for (target, gain) in [(-18.0, "0.16"), (-14.0, "0.16"), (-18.0, "1.5")] {
            let folder = "Normalized\(Int(-target))-\(gain)"
            let result = try sandbox.run(
                ["render", "Songs", "-o", folder, "--normalize", "--loudness-target", "\(target)", "--gain", gain, "-q"] + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
            // --gain is a trim on top of the target: 1.5 over the default 0.16 is 19.4 dB louder, which the limiter takes.
            let expected = gain == "0.16" ? target : nil
            for name in ["loud", "quiet"] {
                let reading = try FFmpegReader.loudness(sandbox.path("\(folder)/\(name).wav"))
                if let expected {
                    #expect(abs(reading.integratedLUFS - expected) <= 0.5, "\(name) at \(target) LUFS: \(reading)")
                }
                #expect(reading.truePeakDBTP <= -1.0, "\(name) at \(target) LUFS, gain \(gain): \(reading)")
            }
        }
    }

    /// Music so soft that, rendered, it lies below the standard's gate (-70 LUFS) was taken for
    /// silence and left as it was: raised to the target as any song is.
    @Test("--normalize raises music below -70 LUFS to the target, as ffmpeg reads it")
    func musicBelowTheGate() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("soft.mid", LoudnessSong.file(volume: 3))
        let plain = try sandbox.run(["render", "soft.mid", "-o", "plain.wav", "--bits", "32f", "-q"] + Fixtures.fast)
        try #require(plain.succeeded, "\(plain)")
        // What the check below would catch: as rendered, ffmpeg finds it below its gate too.
        let soft = try? FFmpegReader.loudness(sandbox.path("plain.wav"))
        #expect(soft.map { $0.integratedLUFS <= -70 } ?? true, "the song is not soft enough to test this: \(String(describing: soft))")
        let result = try sandbox.run(["render", "soft.mid", "-o", "normalized.wav", "--normalize", "--json"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        #expect(try Self.report(result)["loudnessLUFS"] != nil, "\(result)")
        let reading = try FFmpegReader.loudness(sandbox.path("normalized.wav"))
        #expect(abs(reading.integratedLUFS + 18) <= 0.5, "\(reading)")
    }

    @Test("the loudness target is checked: a usage error naming the option")
    func badTarget() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song())
        for target in ["+40", "-90", "loud"] {
            let result = try sandbox.run(["render", "song.mid", "--normalize", "--loudness-target", target])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("--loudness-target"), "\(result)")
        }
        let both = try sandbox.run(["render", "song.mid", "--normalize", "--normalize-peak"])
        #expect(both.status == 64 && both.stderr.contains("--normalize-peak"), "\(both)")
    }
}

/// What `render` keeps of the loudness it measures: one row a song and sound in the library index.
struct RenderLoudnessMemoryTests {
    static func measurementCount(_ sandbox: Sandbox) throws -> Int {
        let result = try Command(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [sandbox.dataHome + "/smfplay/library.sqlite", "SELECT count(*) FROM loudness"]
        ).run()
        try #require(result.succeeded, "\(result)")
        return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("a song is measured once for each sound: another SoundFont, or the same one changed, is measured anew; the gain is not a new sound")
    func measuredOncePerSound() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", LoudnessSong.file(volume: 100, seconds: 4))
        let copy = sandbox.path("copy.sf2")
        try FileManager.default.copyItem(atPath: Fixtures.soundFont, toPath: copy)
        let runs: [(arguments: [String], count: Int)] = [
            (["--soundfont", Fixtures.soundFont], 1),
            (["--soundfont", Fixtures.soundFont, "--gain", "0.3"], 1),
            (["--soundfont", Fixtures.soundFont, "--normalize"], 1),
            (["--soundfont", copy], 2),
            (["--soundfont", copy, "--no-reverb"], 3),
        ]
        for run in runs {
            let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--force", "--tail", "0", "-q"] + run.arguments)
            try #require(result.succeeded, "\(result)")
            #expect(try Self.measurementCount(sandbox) == run.count, "after \(run.arguments)")
        }
        // The same SoundFont changed: its time moved on.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: copy)
        let result = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--force", "--tail", "0", "-q", "--soundfont", copy])
        try #require(result.succeeded, "\(result)")
        #expect(try Self.measurementCount(sandbox) == 4)
    }

    @Test("a normalized render of a song measured before (one pass) is the two-pass render of it, sample for sample")
    func knownLoudnessIsOnePass() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", LoudnessSong.file(volume: 90))
        let first = try sandbox.run(["render", "song.mid", "-o", "first.wav", "--normalize", "--json"] + Fixtures.fast)
        try #require(first.succeeded, "\(first)")
        let second = try sandbox.run(["render", "song.mid", "-o", "second.wav", "--normalize", "--json"] + Fixtures.fast)
        try #require(second.succeeded, "\(second)")
        let firstReport = try RenderLoudnessTests.report(first)
        let secondReport = try RenderLoudnessTests.report(second)
        #expect(firstReport["normalizationGainDecibels"] as? Double == secondReport["normalizationGainDecibels"] as? Double)
        #expect(firstReport["loudnessLUFS"] as? Double == secondReport["loudnessLUFS"] as? Double)
        let firstSamples = try AudioFileReader(path: FilePath(sandbox.path("first.wav"))).readAll()
        let secondSamples = try AudioFileReader(path: FilePath(sandbox.path("second.wav"))).readAll()
        #expect(firstSamples == secondSamples, "the two renders differ")
    }
}
