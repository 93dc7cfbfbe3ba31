import AudioOutput
import CompatibilitySongs
import Foundation
import Playback
import SMF
import SoundComparison
import Synthesis
import SystemPackage
import Testing

/// One song split across synthesizers (``ChannelSplit``, `SongRenderer.render(…cores:)`) sounds as
/// one synthesizer plays it: by sound, at the bounds (similarity ≥ 0.99, level within
/// 0.5 dB), for songs with effects, GS and XG messages, loops and the listener's changes. The whole
/// openttd-openmsx corpus is checked the same way in ``CorpusRenderTests``.
@Suite struct SplitRenderTests {
    /// The bounds of the issue: a split render is the same rendering, not merely alike.
    static let sameRendering = SoundComparison.Tolerance(minimumSimilarity: 0.99, maximumLevelDifference: 0.5, maximumBandDeficit: 3)

    /// The song rendered by `SongRenderer` on `cores` cores, tail and all, read back.
    static func render(_ file: MIDIFile, cores: Int, settings: SynthesizerSettings = DefaultRender.settings(),
                       soundFonts: SoundFontStack? = nil, options: RenderOptions = RenderOptions(format: .wav, encoding: .float32)) throws -> [Float] {
        let folder = try TemporaryFolder()
        let output = folder.file("out.wav")
        let stack = try soundFonts ?? SoundFontStack([TestSoundFont.required()])
        let renderer = SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFonts: stack))
        _ = try renderer.render(Song(file: file), to: FilePath(output), options: options, cores: cores)
        return try AudioFileReader(path: FilePath(output)).readAll()
    }

    static func expectSame(_ split: [Float], _ whole: [Float], _ what: String) {
        let comparison = SoundComparison(candidate: split, reference: whole, sampleRate: 44_100)
        #expect(comparison.mismatches(sameRendering).isEmpty, "\(what): \(comparison.mismatches(sameRendering))")
        #expect(abs(split.count - whole.count) <= 2 * 4_096, "\(what): \(split.count / 2) frames split, \(whole.count / 2) whole")
    }

    @Test func channelsGoToTheLightestPartHeaviestFirst() {
        var loads = [Double](repeating: 0, count: 64)
        loads[0] = 10
        loads[1] = 1
        loads[2] = 2
        loads[9] = 8
        loads[20] = 3
        let split = ChannelSplit(loads: loads, count: 2)
        #expect(split.parts.count == 2)
        // 10 | 8, then 3 to the 8 (11), 2 to the 10 (12), 1 to the 11 (12).
        let loaded: UInt64 = 1 << 0 | 1 << 1 | 1 << 2 | 1 << 9 | 1 << 20
        let first: UInt64 = 1 << 0 | 1 << 2
        let second: UInt64 = 1 << 9 | 1 << 20 | 1 << 1
        #expect(split.parts[0] == first | ~loaded, "the first part, and every channel without notes")
        #expect(split.parts[1] == second)
        #expect(split.parts.reduce(0, |) == ~0 && split.parts[0] & split.parts[1] == 0, "every channel in exactly one part")
        #expect(ChannelSplit(loads: loads, count: 8).parts.count == 5, "no more parts than channels with notes")
        #expect(ChannelSplit(loads: [Double](repeating: 0, count: 64), count: 4).parts == [~0])
    }

    @Test func aSongWithEffectsSoundsTheSameSplit() throws {
        let file = TestSongs.melody.file
        Self.expectSame(try Self.render(file, cores: 3), try Self.render(file, cores: 1), "the melody on 3 cores")
    }

    /// The comparison fails a split that loses a part: the sum of every part but the drums'.
    @Test func aSplitMissingAPartFails() throws {
        let song = TestSongs.melody
        let whole = try Self.render(song.file, cores: 1)
        let settings = DefaultRender.settings()
        let soundFont = try TestSoundFont.required()
        let template = Sequencer(song: song, synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont))
        let split = ChannelSplit(loads: template.channelLoads(probe: try Synthesizer(settings: settings, soundFontPath: soundFont)), count: 3)
        #expect(split.parts.count == 3)
        let frames = whole.count / 2
        func sum(of parts: [UInt64]) throws -> [Float] {
            var total = [Float](repeating: 0, count: 2 * frames)
            for channels in parts {
                let part = Sequencer(partOf: template, synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont), channels: channels)
                var samples = [Float](repeating: 0, count: 2 * frames)
                samples.withUnsafeMutableBufferPointer { part.render(into: $0.baseAddress!, frames: frames) }
                for index in total.indices { total[index] += samples[index] }
            }
            return total
        }
        // Limiter aside (nothing here comes near it), the parts summed by hand are the split render.
        Self.expectSame(try sum(of: split.parts), whole, "every part summed")
        let withoutDrums = try sum(of: split.parts.filter { $0 & 1 << 9 == 0 })
        let comparison = SoundComparison(candidate: withoutDrums, reference: whole, sampleRate: 44_100)
        #expect(!comparison.mismatches(Self.sameRendering).isEmpty, "a split without its drums passes: the test could not fail")
    }

    /// GS and XG songs (system exclusive messages every part must follow, drum parts set by
    /// message, the Roland SoundFont stack) sound the same split.
    @Test(arguments: CompatibilityFeature.all.map(\.name))
    func compatibilitySongsSoundTheSameSplit(_ name: String) throws {
        let feature = try #require(CompatibilityFeature.all.first { $0.name == name })
        let stack = try CompatibilityRenderTests.soundFonts(feature.soundFonts)
        Self.expectSame(try Self.render(feature.feature, cores: 2, soundFonts: stack), try Self.render(feature.feature, cores: 1, soundFonts: stack), name)
    }

    /// Loops, tempo, transposition and a muted channel apply to every part alike.
    @Test func theListenersChangesAndLoopsApplyToEveryPart() throws {
        let piece = PerformanceRenderTests.Piece(loopMark: 4)
        var options = RenderOptions(format: .wav, encoding: .float32, performance: Performance(transpose: 3, tempo: 1.5),
                                    loops: LoopSettings(passes: 3, fadeSeconds: 1))
        options.performance.muted = ChannelSet(numbers: [2])!
        let split = try Self.render(piece.file, cores: 2, options: options)
        let whole = try Self.render(piece.file, cores: 1, options: options)
        Self.expectSame(split, whole, "looped, faster, transposed, one channel muted")
        let asWritten = try Self.render(piece.file, cores: 1)
        #expect(!SoundComparison(candidate: split, reference: asWritten, sampleRate: 44_100).mismatches(Self.sameRendering).isEmpty,
                "the changes make no difference: the test could not fail")
    }

    /// Each part has the whole polyphony to itself: a split never steals a voice one synthesizer
    /// would keep. Two organ chords at a polyphony one synthesizer cannot hold both in sound, split,
    /// as one synthesizer sounds with room for both.
    @Test func eachPartHasTheWholePolyphony() throws {
        let chords = TestSongs.song { track in
            for channel: UInt8 in [0, 1] { track.append(.programChange(channel: channel, program: 19), atTick: 0) }
            for note: UInt8 in [48, 52, 55, 60, 64, 67] {
                track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: 0)
                track.append(.noteOn(channel: 1, note: note + 12, velocity: 100), atTick: 0)
            }
            track.append(.meta(.endOfTrack), atTick: TestSongs.tick(1))
        }.file
        let options = RenderOptions(format: .wav, encoding: .float32, tailLimit: 0.5)
        let voicesOfOneChord = try Self.voices(of: chords, channel: 0)
        var tight = DefaultRender.settings()
        tight.polyphony = voicesOfOneChord
        var ample = DefaultRender.settings()
        ample.polyphony = 4 * voicesOfOneChord
        let split = try Self.render(chords, cores: 2, settings: tight, options: options)
        Self.expectSame(split, try Self.render(chords, cores: 1, settings: ample, options: options), "split at a tight polyphony")
        let stolen = try Self.render(chords, cores: 1, settings: tight, options: options)
        #expect(!SoundComparison(candidate: stolen, reference: split, sampleRate: 44_100).mismatches(Self.sameRendering).isEmpty,
                "one synthesizer at the tight polyphony holds both chords: the test could not fail")
    }

    /// The voices FluidSynth starts for one channel's notes of `file`.
    static func voices(of file: MIDIFile, channel: Int) throws -> Int {
        let synthesizer = try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required())
        let whole = Sequencer(song: Song(file: file), synthesizer: synthesizer)
        let part = Sequencer(partOf: whole, synthesizer: synthesizer, channels: 1 << UInt64(channel))
        var block = [Float](repeating: 0, count: 2 * 256)
        block.withUnsafeMutableBufferPointer { part.render(into: $0.baseAddress!, frames: 256) }
        return synthesizer.activeVoiceCount
    }
}
