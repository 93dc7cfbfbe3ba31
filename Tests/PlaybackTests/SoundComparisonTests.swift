import Foundation
import SMF
import SoundComparison
import Synthesis
import SystemPackage
import Testing

/// The comparison that render tests judge sound by, on real renderings: the same music passes,
/// and each fault a listener hears fails it.
@Suite struct SoundComparisonTests {
    struct Parts {
        var melodyProgram: UInt8 = 0
        var melodyShift: UInt8 = 0
        var hasBass = true
        var hasDrums = true
        /// Channel 10, or another channel (where drum notes play as notes).
        var drumChannel: UInt8 = 9
    }

    /// A piano melody, a bass line and a drum pattern, 4 s.
    static func song(_ parts: Parts) -> Song {
        TestSongs.song { track in
            track.append(.programChange(channel: 0, program: parts.melodyProgram), atTick: 0)
            track.append(.programChange(channel: 1, program: 33), atTick: 0)
            if parts.drumChannel != 9 { track.append(.programChange(channel: parts.drumChannel, program: 0), atTick: 0) }
            let melody: [UInt8] = [60, 62, 64, 65, 67, 69, 71, 72, 71, 69, 67, 65, 64, 62, 60, 67]
            for step in 0..<16 {
                let start = TestSongs.tick(Double(step) * 0.25)
                let end = TestSongs.tick(Double(step) * 0.25 + 0.22)
                var on: [(UInt8, UInt8)] = [(0, melody[step] + parts.melodyShift)]
                if parts.hasBass, step % 2 == 0 { on.append((1, step % 4 == 0 ? 36 : 43)) }
                if parts.hasDrums {
                    on.append((parts.drumChannel, 42))
                    if step % 4 == 0 { on.append((parts.drumChannel, 36)) }
                    if step % 4 == 2 { on.append((parts.drumChannel, 38)) }
                }
                for (channel, note) in on { track.append(.noteOn(channel: channel, note: note, velocity: 100), atTick: start) }
                for (channel, note) in on { track.append(.noteOff(channel: channel, note: note, velocity: 64), atTick: end) }
            }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(4.5))
        }
    }

    /// Renders through the sequencer in buffers of `bufferFrames`, as the player does, to memory.
    static func render(
        _ song: Song, soundFont: FilePath = TestSoundFont.path, bufferFrames: Int = 4096,
        interpolation: SynthesizerSettings.Interpolation = .cubic
    ) throws -> [Float] {
        var settings = DefaultRender.settings()
        settings.interpolation = interpolation
        let synthesizer = try Synthesizer(settings: settings, soundFontPath: soundFont)
        let sequencer = Sequencer(song: song, synthesizer: synthesizer)
        var samples = [Float](repeating: 0, count: 2 * Int(sequencer.endFrame))
        samples.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < Int(sequencer.endFrame) {
                let frames = min(bufferFrames, Int(sequencer.endFrame) - done)
                sequencer.render(into: buffer.baseAddress! + 2 * done, frames: frames)
                done += frames
            }
        }
        return samples
    }

    static func compare(_ candidate: [Float], _ reference: [Float]) -> SoundComparison {
        SoundComparison(candidate: candidate, reference: reference, sampleRate: 44_100)
    }

    @Test func theSameMusicRenderedAgainSoundsTheSame() throws {
        _ = try TestSoundFont.required()
        let reference = try Self.render(Self.song(Parts()))
        // Another rendering of the same music: small buffers, and linear instead of cubic interpolation.
        let again = try Self.render(Self.song(Parts()), bufferFrames: 64, interpolation: .linear)
        #expect(zip(again, reference).filter { $0 != $1 }.count > 1000, "two renderings that differ a little, not the same samples")
        let comparison = Self.compare(again, reference)
        #expect(comparison.mismatches().isEmpty, "\(comparison.mismatches())")
        #expect(comparison.spectralSimilarity > 0.99, "similarity \(comparison.spectralSimilarity)")
        // Linear interpolation loses a little of the highest band: 1.8 dB, measured.
        #expect(abs(comparison.levelDifference) < 0.1 && comparison.largestBandDeficit < 3, "\(comparison)")
        let quieter = Self.compare(reference.map { $0 * Float(pow(10, -0.5 / 20)) }, reference)
        #expect(quieter.mismatches().isEmpty, "0.5 dB quieter is within ±1 dB: \(quieter.mismatches())")
    }

    @Test(
        "each fault a listener hears fails the comparison",
        arguments: [
            ("drums played as piano notes", Parts(drumChannel: 2)),
            ("strings instead of the piano", Parts(melodyProgram: 48)),
            ("an organ instead of the piano", Parts(melodyProgram: 19)),
            ("the melody an octave up", Parts(melodyShift: 12)),
            ("the bass missing", Parts(hasBass: false)),
            ("the drums missing", Parts(hasDrums: false)),
        ])
    func faultsFail(_ fault: String, _ parts: Parts) throws {
        _ = try TestSoundFont.required()
        let reference = try Self.render(Self.song(Parts()))
        let wrong = Self.compare(try Self.render(Self.song(parts)), reference)
        #expect(
            !wrong.mismatches().isEmpty,
            "\(fault) passes: similarity \(wrong.spectralSimilarity), level \(wrong.levelDifference), deficit \(wrong.largestBandDeficit) dB at \(wrong.deficitFrequency) Hz"
        )
    }

    @Test("the wrong level fails: 2 dB and 12 dB quieter", arguments: [-2.0, -12.0])
    func levelFails(decibels: Double) throws {
        _ = try TestSoundFont.required()
        let reference = try Self.render(Self.song(Parts()))
        let comparison = Self.compare(reference.map { $0 * Float(pow(10, decibels / 20)) }, reference)
        #expect(comparison.mismatches().count == 1 && comparison.mismatches()[0].hasPrefix("level"), "\(comparison.mismatches())")
        #expect(abs(comparison.levelDifference - decibels) < 0.01)
    }

    @Test func clippingFails() throws {
        _ = try TestSoundFont.required()
        let reference = try Self.render(Self.song(Parts()))
        let loud = reference.map { $0 * 30 }
        let comparison = SoundComparison(candidate: loud, reference: loud, sampleRate: 44_100)
        #expect(comparison.mismatches().contains { $0.hasPrefix("clips") }, "\(comparison.mismatches())")
    }

    @Test func drumsAsPianoFailWithFluidR3Too() throws {
        let fluidR3: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
        try #require(FileManager.default.fileExists(atPath: fluidR3.string), "\(fluidR3) is missing: run `make deps`")
        let reference = try Self.render(Self.song(Parts()), soundFont: fluidR3)
        #expect(Self.compare(try Self.render(Self.song(Parts()), soundFont: fluidR3, interpolation: .linear), reference).mismatches().isEmpty)
        #expect(!Self.compare(try Self.render(Self.song(Parts(drumChannel: 2)), soundFont: fluidR3), reference).mismatches().isEmpty)
    }
}
