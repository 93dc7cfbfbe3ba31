import Foundation
import TestSupport
import Testing

/// `smfplay index --loudness`: every song of the library measured once for its sound, what
/// `render --normalize` then finds.
struct IndexLoudnessCommandTests {
    @Test("index --loudness measures each song once; a later run, a render with another gain and --normalize find them known")
    func measuresOnce() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("Library/Loud/loud.mid", LoudnessSong.file(volume: 127, seconds: 4))
        try sandbox.write("Library/Quiet/quiet.mid", LoudnessSong.file(volume: LoudnessSong.tenBelow, seconds: 4))
        // A folder's gain is a trim, not another sound.
        try sandbox.write("Library/Quiet/.smfplay.toml", text: "gain = 0.3\n")
        let sound = ["--soundfont", Fixtures.soundFont]
        let first = try sandbox.run(["index", "--library", "Library", "--loudness"] + sound)
        #expect(first.succeeded, "\(first)")
        #expect(first.stdout.contains("measured the loudness of 2 songs"), "\(first)")
        #expect(try RenderLoudnessMemoryTests.measurementCount(sandbox) == 2)

        let again = try sandbox.run(["index", "--library", "Library", "--loudness"] + sound)
        #expect(again.stdout.contains("measured the loudness of 0 songs, 2 known"), "\(again)")

        let render = try sandbox.run(["render", "Library", "-o", "Rendered", "--normalize", "--tail", "0", "-q"] + sound)
        #expect(render.succeeded, "\(render)")
        #expect(try RenderLoudnessMemoryTests.measurementCount(sandbox) == 2, "render measured a song index --loudness had measured")
        for name in ["Loud/loud", "Quiet/quiet"] {
            let reading = try FFmpegReader.loudness(sandbox.path("Rendered/\(name).wav"))
            // The quiet folder's gain of 0.3 over the default 0.16 is a trim of 5.5 dB above the target.
            let expected = name.hasPrefix("Quiet") ? -18 + 20 * log10(0.3 / 0.16) : -18
            #expect(abs(reading.integratedLUFS - expected) <= 0.5, "\(name): \(reading), expected \(expected) LUFS")
        }

        // Another sound: reverb off is measured anew.
        let dry = try sandbox.run(["index", "--library", "Library", "--loudness", "--no-reverb", "-q"] + sound)
        #expect(dry.succeeded, "\(dry)")
        #expect(try RenderLoudnessMemoryTests.measurementCount(sandbox) == 4)
    }

    @Test("a song that cannot be read is reported with its name, the others are measured, and the status is 1")
    func badSong() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("Library/good.mid", LoudnessSong.file(volume: 100, seconds: 4))
        try sandbox.write("Library/broken.mid", Array("MThd not really".utf8))
        let result = try sandbox.run(["index", "--library", "Library", "--loudness", "--soundfont", Fixtures.soundFont])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("broken.mid"), "\(result)")
        #expect(result.stdout.contains("measured the loudness of 1 song, 1 failed"), "\(result)")
    }

    @Test("a damaged index found by render --normalize is set aside with one warning naming where it went, and the render goes on")
    func damagedIndexIsSaid() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", LoudnessSong.file(volume: 100, seconds: 2))
        try FileManager.default.createDirectory(atPath: sandbox.dataHome + "/smfplay", withIntermediateDirectories: true)
        try Data("not an index".utf8).write(to: URL(fileURLWithPath: sandbox.dataHome + "/smfplay/library.sqlite"))
        let render = try sandbox.run(["render", "song.mid", "-o", "song.wav", "--normalize", "--tail", "0", "-q", "--soundfont", Fixtures.soundFont])
        #expect(render.succeeded, "\(render)")
        #expect(render.stderrLines.count == 1 && render.stderr.contains("library.sqlite: the library index was damaged"), "\(render)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: sandbox.dataHome + "/smfplay").filter { $0.hasPrefix("library.sqlite.bad-") }
        #expect(aside.count == 1 && render.stderr.contains(aside[0]), "\(aside) \(render)")
        #expect(try RenderLoudnessMemoryTests.measurementCount(sandbox) == 1)
    }
}
