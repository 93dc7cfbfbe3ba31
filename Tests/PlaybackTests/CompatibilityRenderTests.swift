import CompatibilitySongs
import Foundation
import SMF
import SoundComparison
import Synthesis
import SystemPackage
import Testing

/// Each GS, XG and GM2 feature, by sound: smfplay's rendering of a song that uses it sounds like
/// the same music written in plain GM, and unlike what a player that ignores the feature plays.
@Suite struct CompatibilityRenderTests {
    static let fluidGS: FilePath = "/usr/share/sounds/sf2/FluidR3_GS.sf2"
    static let fluidGM: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    static func soundFonts(_ needed: CompatibilityFeature.SoundFonts) throws -> SoundFontStack {
        let paths = needed == .rolandStack ? [fluidGS, fluidGM] : [TestSoundFont.path]
        for path in paths { try #require(FileManager.default.fileExists(atPath: path.string), "\(path) is missing: run `make deps`") }
        return SoundFontStack(paths)
    }

    /// The whole song rendered as `smfplay render` does (default settings, the sequencer's own
    /// standard detection), to memory.
    static func render(_ file: MIDIFile, soundFonts: SoundFontStack, midiMode: MIDIMode? = nil) throws -> [Float] {
        var settings = DefaultRender.settings()
        settings.midiMode = midiMode
        let sequencer = Sequencer(song: Song(file: file), synthesizer: try Synthesizer(settings: settings, soundFonts: soundFonts))
        let frames = Int(sequencer.endFrame) + 22_050
        var samples = [Float](repeating: 0, count: 2 * frames)
        samples.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
        return samples
    }

    @Test(arguments: CompatibilityFeature.all.map(\.name))
    func featureSoundsLikeItsReference(_ name: String) throws {
        let feature = try #require(CompatibilityFeature.all.first { $0.name == name })
        let stack = try Self.soundFonts(feature.soundFonts)
        let played = try Self.render(feature.feature, soundFonts: stack)
        let alike = SoundComparison(candidate: played, reference: try Self.render(feature.reference, soundFonts: stack), sampleRate: 44_100)
        #expect(alike.mismatches().isEmpty, "\(name) (\(feature.summary)) does not sound like its reference: \(alike.mismatches())")
        let unlike = SoundComparison(candidate: played, reference: try Self.render(feature.wrong, soundFonts: stack), sampleRate: 44_100)
        #expect(
            !unlike.mismatches().isEmpty,
            "\(name): the feature sounds like the wrong version (similarity \(unlike.spectralSimilarity), level \(unlike.levelDifference) dB): the test could not fail"
        )
    }

    /// `--midi-mode gm` reads the XG song as GM: its drum kit is a piano again, as the user asked.
    @Test func aChosenModeOverridesTheSong() throws {
        let feature = try #require(CompatibilityFeature.all.first { $0.name == "xg-detected-from-banks" })
        let stack = try Self.soundFonts(.generalMIDI)
        let forced = try Self.render(feature.feature, soundFonts: stack, midiMode: .gm)
        let wrong = try Self.render(feature.wrong, soundFonts: stack)
        #expect(SoundComparison(candidate: forced, reference: wrong, sampleRate: 44_100).mismatches().isEmpty)
    }

    /// A seek past the GS rhythm-part message: the chase brings the drum part back.
    @Test func aSeekChasesTheRhythmPart() throws {
        let feature = try #require(CompatibilityFeature.all.first { $0.name == "gs-rhythm-part" })
        let stack = try Self.soundFonts(.generalMIDI)
        func renderFrom(_ file: MIDIFile, seconds: Double) throws -> [Float] {
            let sequencer = Sequencer(song: Song(file: file), synthesizer: try Synthesizer(settings: DefaultRender.settings(), soundFonts: stack))
            sequencer.seek(toSeconds: seconds)
            let frames = Int(sequencer.endFrame - sequencer.position)
            var samples = [Float](repeating: 0, count: 2 * frames)
            samples.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
            return samples
        }
        let sought = try renderFrom(feature.feature, seconds: 1.5)
        #expect(
            SoundComparison(candidate: sought, reference: try renderFrom(feature.reference, seconds: 1.5), sampleRate: 44_100).mismatches().isEmpty)
        #expect(!SoundComparison(candidate: sought, reference: try renderFrom(feature.wrong, seconds: 1.5), sampleRate: 44_100).mismatches().isEmpty)
    }
}
