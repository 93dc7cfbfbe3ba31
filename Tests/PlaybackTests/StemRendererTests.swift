import AudioOutput
import Foundation
import Playback
import SMF
import Synthesis
import SystemPackage
import Testing

/// `StemRenderer` on songs built in code, at the default settings with TimGM6mb: a stem that
/// starts late, and a render stopped half-way.
struct StemRendererTests {
    static func renderer() throws -> StemRenderer {
        StemRenderer(keeping: try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required()))
    }

    static let floats = RenderOptions(format: .wav, encoding: .float32, tailLimit: 0.5)

    /// A piano from the start, and strings that come in at 1 s: the strings' file starts then.
    static let lateStrings = TestSongs.song { track in
        track.append(.programChange(channel: 0, program: 0), atTick: 0)
        track.append(.programChange(channel: 1, program: 48), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
        track.append(.noteOn(channel: 1, note: 67, velocity: 100), atTick: TestSongs.tick(1))
        track.append(.noteOff(channel: 0, note: 60, velocity: 64), atTick: TestSongs.tick(1.5))
        track.append(.noteOff(channel: 1, note: 67, velocity: 64), atTick: TestSongs.tick(1.5))
        track.append(.meta(.endOfTrack), atTick: TestSongs.tick(2))
    }

    @Test("a channel that comes in late: silence in its stem until then, every stem as long as the mix, and their sum the mix")
    func lateStem() throws {
        let folder = try TemporaryFolder()
        _ = try Self.renderer().render(Self.lateStrings, toFolder: folder.filePath("stems"), options: Self.floats)
        var unlimited = Self.floats
        unlimited.limitsPeaks = false
        let mixRenderer = SongRenderer(synthesizer: try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required()))
        _ = try mixRenderer.render(Self.lateStrings, to: folder.filePath("mix.wav"), options: unlimited)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.file("stems")).sorted() == [
                "01 Acoustic Grand Piano.wav", "02 String Ensemble 1.wav", "Mix.wav",
            ])
        let piano = try AudioFileReader(path: folder.filePath("stems/01 Acoustic Grand Piano.wav")).readAll()
        let strings = try AudioFileReader(path: folder.filePath("stems/02 String Ensemble 1.wav")).readAll()
        let mix = try AudioFileReader(path: folder.filePath("mix.wav")).readAll()
        #expect(piano.count == mix.count && strings.count == mix.count, "\(piano.count), \(strings.count) and \(mix.count) samples")
        let entry = 2 * 44_100
        #expect(strings[..<(entry - 2 * 4_096)].allSatisfy { $0 == 0 }, "the strings' stem is silent until the block before they come in")
        #expect(Level.peak(strings[entry...]) > Level.linear(decibels: -30))
        let difference = zip(zip(piano, strings), mix).reduce(0.0) { $0 + Double($1.0.0 + $1.0.1 - $1.1) * Double($1.0.0 + $1.0.1 - $1.1) }
        let energy = mix.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(10 * log10(difference / energy) < -60)
    }

    @Test("stopped half-way: no stem, no mix, no temporary file, and the folder it made is gone; one that was there stays")
    func cancelled() throws {
        let folder = try TemporaryFolder()
        let renderer = try Self.renderer()
        for target in ["new", "existing"] {
            if target == "existing" { _ = try folder.createFolder(target) }
            let cancellation = Cancellation()
            let error = #expect(throws: RenderError.self) {
                try renderer.render(TestSongs.melody, toFolder: folder.filePath(target), options: Self.floats, cancellation: cancellation) {
                    fraction in
                    if fraction > 0.3 { cancellation.cancel() }
                }
            }
            guard case .cancelled = error else {
                Issue.record("\(target): \(String(describing: error))")
                continue
            }
        }
        #expect(try folder.contents() == ["existing"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("existing")).isEmpty)
    }
}
