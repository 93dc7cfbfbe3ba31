import AudioOutput
import Dispatch
import Foundation
import Playback
import SMF
import Synchronization
import Synthesis
import SystemPackage
import Testing

/// No song of the openttd-openmsx corpus clips with either of Debian's General MIDI SoundFonts at
/// the default settings: every peak of every render is at or below −1 dBFS. (TimGM6mb is rendered
/// by CorpusRenderTests; this renders FluidR3_GM, the louder and the default.)
@Suite struct CorpusPeakTests {
    static let fluidR3: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    @Test func noCorpusSongGoesAboveMinusOneDecibelWithFluidR3() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3.string), "\(Self.fluidR3) is missing: run `make deps` (fluid-soundfont-gm)")
        let names = OpenMSXCorpus.fileNames
        try #require(names.count >= 31, "the openttd-openmsx corpus is missing: run `make deps`")
        let folder = try TemporaryFolder()
        let folderPath = folder.path
        let results = await OwnThreads.map(names, workers: 2) {
            let renderer = SongRenderer(synthesizer: try Synthesizer(settings: DefaultRender.settings(), soundFontPath: Self.fluidR3))
            return { name in
                let song = Song(file: try SMFReader().read(path: FilePath(OpenMSXCorpus.directory + "/" + name)).file)
                let output = folderPath + "/" + name + ".wav"
                defer { try? FileManager.default.removeItem(atPath: output) }
                return try renderer.render(song, to: FilePath(output), options: RenderOptions(format: .wav, encoding: .float32)).peak
            }
        }
        #expect(results.count == names.count, "\(results.count) of \(names.count) rendered")
        for (name, result) in results.sorted(by: { $0.key < $1.key }) {
            let peak = try result.get()
            #expect(peak <= PeakLimiter.defaultCeiling, "\(name): peak \(20 * log10(peak)) dBFS")
            #expect(peak > 0.01, "\(name): silent")
        }
    }
}
