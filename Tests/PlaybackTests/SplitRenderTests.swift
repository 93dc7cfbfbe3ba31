import AudioOutput
import CompatibilitySongs
import Foundation
import Playback
import SMF
import SoundComparison
import Synthesis
import SystemPackage
import Testing

/// One song split across synthesizers (``NoteSplit``, `SongRenderer.render(…cores:)`) sounds as
/// one synthesizer plays it: by sound, at the bounds of the same rendering (similarity ≥ 0.99, level within
/// 0.5 dB), for songs with effects, GS and XG messages, loops and the listener's changes. The whole
/// openttd-openmsx corpus is checked the same way in ``CorpusRenderTests``.
@Suite struct SplitRenderTests {
    /// A split render is the same rendering, not merely alike: similarity 0.99, level within 0.5 dB.
    static let sameRendering = SoundComparison.Tolerance(minimumSimilarity: 0.99, maximumLevelDifference: 0.5, maximumBandDeficit: 3)

    /// The song rendered by `SongRenderer` on `cores` cores, tail and all, read back.
    static func render(
        _ file: MIDIFile, cores: Int, settings: SynthesizerSettings = DefaultRender.settings(),
        soundFonts: SoundFontStack? = nil, options: RenderOptions = RenderOptions(format: .wav, encoding: .float32)
    ) throws -> [Float] {
        let folder = try TemporaryFolder()
        let output = folder.file("out.wav")
        let stack = try soundFonts ?? SoundFontStack([TestSoundFont.required()])
        let renderer = SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFonts: stack))
        let result = try renderer.render(Song(file: file), to: FilePath(output), options: options, cores: cores)
        // A render asked for on several cores is split: one that fell back to one synthesizer
        // would sound the same, and pass every comparison of this suite without testing a split.
        #expect(cores == 1 || result.partCount > 1, "asked for \(cores) cores, the song played on \(result.partCount)")
        return try AudioFileReader(path: FilePath(output)).readAll()
    }

    static func expectSame(_ split: [Float], _ whole: [Float], _ what: String) {
        let comparison = SoundComparison(candidate: split, reference: whole, sampleRate: 44_100)
        #expect(comparison.mismatches(sameRendering).isEmpty, "\(what): \(comparison.mismatches(sameRendering))")
        #expect(abs(split.count - whole.count) <= 2 * 4_096, "\(what): \(split.count / 2) frames split, \(whole.count / 2) whole")
    }

    @Test func keysGoToTheLightestPartHeaviestFirstAndTiedKeysTogether() {
        var loads = NoteLoads()
        func slot(_ channel: Int, _ key: Int) -> Int { channel * 128 + key }
        loads.loads[slot(0, 60)] = 10
        loads.loads[slot(0, 62)] = 1
        loads.loads[slot(0, 64)] = 2
        loads.loads[slot(9, 42)] = 5
        loads.loads[slot(9, 46)] = 3
        loads.loads[slot(20, 30)] = 3
        loads.tie(slot(9, 42), slot(9, 46))
        let split = NoteSplit(loads: loads, count: 2)
        #expect(split.partCount == 2)
        // 10 | the hi-hats' 8, then 3 to the 8 (11), 2 to the 10 (12), 1 to the 11 (12).
        #expect([slot(0, 60), slot(0, 64)].allSatisfy { split.owners[$0] == 0 })
        #expect([slot(9, 42), slot(9, 46), slot(20, 30), slot(0, 62)].allSatisfy { split.owners[$0] == 1 })
        #expect(split.owners[slot(3, 3)] == 0, "a key without notes goes to the first part")
        #expect(NoteSplit(loads: loads, count: 8).partCount == 5, "no more parts than groups of keys with notes")
        #expect(NoteSplit(loads: NoteLoads(), count: 4).partCount == 1)
        loads.wholeChannels = 1
        #expect(Set([60, 62, 64].map { NoteSplit(loads: loads, count: 3).owners[slot(0, $0)] }).count == 1, "a channel that glides stays whole")
    }

    /// What the probe reads: the controllers that join keys make their channel whole, and a
    /// SoundFont's exclusive classes tie the hi-hats.
    @Test func theProbeTiesKeysThatActOnOneAnother() throws {
        let song = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            track.append(.controlChange(channel: 1, controller: 65, value: 127), atTick: 0)
            for (index, key) in [42, 44, 46, 36].enumerated() {
                track.append(.noteOn(channel: 9, note: UInt8(key), velocity: 100), atTick: UInt32(100 * index))
                track.append(.noteOn(channel: 0, note: UInt8(60 + index), velocity: 100), atTick: UInt32(100 * index))
                track.append(.noteOn(channel: 1, note: UInt8(60 + index), velocity: 100), atTick: UInt32(100 * index))
            }
            track.append(.meta(.endOfTrack), atTick: 1_000)
        }
        let settings = DefaultRender.settings()
        let soundFont = try TestSoundFont.required()
        let loads = Sequencer(song: song, synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont))
            .noteLoads(probe: try Synthesizer(settings: settings, soundFontPath: soundFont))
        #expect(loads.wholeChannels == 1 << 1, "only channel 2, with portamento, is whole")
        #expect(loads.group(of: 9 * 128 + 42) == loads.group(of: 9 * 128 + 46), "the closed and open hi-hats share an exclusive class in TimGM6mb")
        #expect(loads.group(of: 9 * 128 + 42) != loads.group(of: 9 * 128 + 36), "the bass drum has none")
        #expect(Set((60..<64).map { loads.group(of: $0) }).count == 4, "a piano's keys are free")
        #expect((9 * 128..<10 * 128).allSatisfy { loads.loads[$0] == 0 || [36, 42, 44, 46].contains($0 - 9 * 128) })
        #expect([36, 42, 44, 46].allSatisfy { loads.loads[9 * 128 + $0] > 0 })
    }

    /// A drum's cost is the time it is heard: its samples' length, measured by the probe, not a
    /// guess that makes a kick drum cost as much as a crash cymbal (measured on the corpus: a split
    /// by the guess gave one part 61 % of the work and the other 33 %).
    @Test func aOneShotSoundCostsTheTimeItIsHeard() throws {
        let synthesizer = try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required())
        synthesizer.reset()
        let kick = synthesizer.soundingSeconds(channel: 9, key: 36, velocity: 100, limit: 4)
        let crash = synthesizer.soundingSeconds(channel: 9, key: 49, velocity: 100, limit: 4)
        #expect(kick > 0.05 && kick < 1, "kick drum heard for \(kick) s")
        #expect(crash > 2 * kick, "crash cymbal heard for \(crash) s, kick drum \(kick) s")
        var profile = synthesizer.voiceProfile(channel: 9, key: 36, velocity: 100)
        #expect(!profile.loops)
        let guessed = profile.cost(heldFor: 0.1)
        profile.soundingSeconds = kick
        #expect(profile.cost(heldFor: 0.1) < guessed || kick >= 1.5, "a measured kick costs \(profile.cost(heldFor: 0.1)), guessed \(guessed)")
        #expect(synthesizer.activeVoiceCount == 0, "the probe leaves no voice sounding")
    }

    /// A piano piece on one channel (the commonest song there is) splits across cores too.
    @Test func aPianoOnOneChannelSoundsTheSameSplit() throws {
        let piano = TestSongs.song { track in
            track.append(.programChange(channel: 0, program: 0), atTick: 0)
            track.append(.controlChange(channel: 0, controller: 91, value: 60), atTick: 0)
            var events: [(UInt32, MIDIMessage)] = []
            for step in 0..<24 {
                let start = UInt32(step * 120)
                for key in [48 + step % 12, 60 + (step * 5) % 12, 67 + (step * 7) % 12] {
                    events.append((start, .noteOn(channel: 0, note: UInt8(key), velocity: UInt8(60 + step))))
                    events.append((start + 100, .noteOff(channel: 0, note: UInt8(key), velocity: 64)))
                }
                if step % 8 == 0 { events.append((start, .controlChange(channel: 0, controller: 64, value: 127))) }
                if step % 8 == 7 { events.append((start + 110, .controlChange(channel: 0, controller: 64, value: 0))) }
            }
            for (tick, message) in events.sorted(by: { $0.0 < $1.0 }) { track.append(message, atTick: tick) }
            track.append(.meta(.endOfTrack), atTick: 24 * 120 + 480)
        }.file
        Self.expectSame(try Self.render(piano, cores: 2), try Self.render(piano, cores: 1), "a piano with its pedal on 2 cores")
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
        let split = NoteSplit(loads: template.noteLoads(probe: try Synthesizer(settings: settings, soundFontPath: soundFont)), count: 3)
        #expect(split.partCount == 3)
        let frames = whole.count / 2
        func sum(of parts: [Int]) throws -> [Float] {
            var total = [Float](repeating: 0, count: 2 * frames)
            for index in parts {
                let part = Sequencer(
                    partOf: template, synthesizer: try Synthesizer(settings: settings, soundFontPath: soundFont), part: index, of: split)
                var samples = [Float](repeating: 0, count: 2 * frames)
                samples.withUnsafeMutableBufferPointer { part.render(into: $0.baseAddress!, frames: frames) }
                for index in total.indices { total[index] += samples[index] }
            }
            return total
        }
        // Limiter aside (nothing here comes near it), the parts summed by hand are the split render.
        Self.expectSame(try sum(of: Array(0..<split.partCount)), whole, "every part summed")
        let drums = Int(split.owners[9 * 128 + 42])
        let withoutDrums = try sum(of: (0..<split.partCount).filter { $0 != drums })
        let comparison = SoundComparison(candidate: withoutDrums, reference: whole, sampleRate: 44_100)
        #expect(!comparison.mismatches(Self.sameRendering).isEmpty, "a split without its drums passes: the test could not fail")
    }

    /// The render's synthesizer measures the song's notes before it plays them, and then plays
    /// as a new one would, effects and all, for songs with reverb and chorus sends and with GS and
    /// XG messages (which the probe sends it too): sample for sample, but for the first block of
    /// the voices the probe rendered with (FluidSynth ramps a reused voice's gain from where it
    /// last was), at most two blocks a little apart. With its effects running while it probes,
    /// this fails (their modulation moves on, and a reset does not bring the reverb's back: every
    /// sample differs, up to -22 dB on the corpus).
    @Test(arguments: ["melody"] + CompatibilityFeature.all.map(\.name))
    func aSynthesizerThatProbedRendersAsANewOne(_ name: String) throws {
        let feature = CompatibilityFeature.all.first { $0.name == name }
        let song = feature.map { Song(file: $0.feature) } ?? TestSongs.melody
        let stack = try feature.map { try CompatibilityRenderTests.soundFonts($0.soundFonts) } ?? SoundFontStack([TestSoundFont.required()])
        func render(probing: Bool) throws -> [Float] {
            let sequencer = Sequencer(song: song, synthesizer: try Synthesizer(settings: DefaultRender.settings(), soundFonts: stack))
            if probing { _ = sequencer.noteLoads(probe: sequencer.synthesizer) }
            let frames = Int(sequencer.framesToEnd ?? 0) + 44_100
            var samples = [Float](repeating: 0, count: 2 * frames)
            samples.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
            return samples
        }
        let fresh = try render(probing: false)
        #expect(fresh.contains { $0 != 0 }, "\(name) is silent")
        let probed = try render(probing: true)
        let differing = probed.indices.filter { probed[$0] != fresh[$0] }
        let largest = differing.map { abs(probed[$0] - fresh[$0]) }.max() ?? 0
        #expect(
            Set(differing.map { $0 / 2 / 64 }).count <= 2 && largest <= 1e-3,
            "\(name): \(differing.count) samples differ, in blocks \(Set(differing.map { $0 / 2 / 64 }).sorted().prefix(5)), by up to \(largest)")
    }

    /// GS and XG songs (system exclusive messages every part must follow, drum parts set by
    /// message, the Roland SoundFont stack) sound the same split.
    @Test(arguments: CompatibilityFeature.all.map(\.name))
    func compatibilitySongsSoundTheSameSplit(_ name: String) throws {
        let feature = try #require(CompatibilityFeature.all.first { $0.name == name })
        let stack = try CompatibilityRenderTests.soundFonts(feature.soundFonts)
        Self.expectSame(
            try Self.render(feature.feature, cores: 2, soundFonts: stack), try Self.render(feature.feature, cores: 1, soundFonts: stack), name)
    }

    /// Loops, tempo, transposition and a muted channel apply to every part alike.
    @Test func theListenersChangesAndLoopsApplyToEveryPart() throws {
        let piece = PerformanceRenderTests.Piece(loopMark: 4)
        var options = RenderOptions(
            format: .wav, encoding: .float32, performance: Performance(transpose: 3, tempo: 1.5),
            loops: LoopSettings(passes: 3, fadeSeconds: 1))
        options.performance.muted = ChannelSet(numbers: [2])!
        let split = try Self.render(piece.file, cores: 2, options: options)
        let whole = try Self.render(piece.file, cores: 1, options: options)
        Self.expectSame(split, whole, "looped, faster, transposed, one channel muted")
        let asWritten = try Self.render(piece.file, cores: 1)
        #expect(
            !SoundComparison(candidate: split, reference: asWritten, sampleRate: 44_100).mismatches(Self.sameRendering).isEmpty,
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
        #expect(
            !SoundComparison(candidate: stolen, reference: split, sampleRate: 44_100).mismatches(Self.sameRendering).isEmpty,
            "one synthesizer at the tight polyphony holds both chords: the test could not fail")
    }

    /// The voices FluidSynth starts for one channel's notes of `file`.
    static func voices(of file: MIDIFile, channel: Int) throws -> Int {
        let synthesizer = try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required())
        let whole = Sequencer(song: Song(file: file), synthesizer: synthesizer)
        var loads = NoteLoads()
        for slot in loads.loads.indices where slot / 128 != channel { loads.loads[slot] = 1 }
        loads.loads[channel * 128] = 1
        let split = NoteSplit(loads: loads, count: 2)
        let part = Sequencer(partOf: whole, synthesizer: synthesizer, part: Int(split.owners[channel * 128]), of: split)
        var block = [Float](repeating: 0, count: 2 * 256)
        block.withUnsafeMutableBufferPointer { part.render(into: $0.baseAddress!, frames: 256) }
        return synthesizer.activeVoiceCount
    }
}
