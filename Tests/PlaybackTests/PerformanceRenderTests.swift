import AudioOutput
import Foundation
import Playback
import SMF
import SoundComparison
import Synthesis
import SystemPackage
import Testing

/// What a listener changes while a song plays (key, tempo, channels, game music's loop), by sound:
/// each rendering sounds like the same music written that way in plain MIDI, and unlike the song
/// as written (which shows that the comparison could fail).
@Suite struct PerformanceRenderTests {
    /// A melody on channel 1 (a flute), bass on channel 2 and drums on channel 10, 16 steps of a
    /// quarter second, written as the reference for a change wants it.
    struct Piece {
        var pitchShift = 0
        /// Semitones added to the drums' keys, which makes them other drums.
        var drumShift = 0
        var microsecondsPerQuarter: UInt32 = 500_000
        var melody = true
        var drums = true
        /// Controller 111 at this step: the loop runs from it to the song's end.
        var loopMark: Int?
        /// The steps from `loopMark` on written out this many times in all.
        var writtenPasses = 1
        /// `loopStart` and `loopEnd` markers at these steps.
        var markers: (start: Int, end: Int)?

        static let melodyNotes = [72, 74, 76, 77, 79, 81, 83, 84, 83, 81, 79, 77, 76, 74, 72, 79]

        var file: MIDIFile {
            var track = Track()
            track.append(.meta(.tempo(microsecondsPerQuarterNote: microsecondsPerQuarter)), atTick: 0)
            track.append(.programChange(channel: 0, program: 73), atTick: 0)
            track.append(.programChange(channel: 1, program: 33), atTick: 0)
            let step: UInt32 = 240
            var steps = Array(0..<16)
            if let loopMark { for _ in 1..<writtenPasses { steps += Array(loopMark..<16) } }
            for (index, note) in steps.enumerated() {
                let start = 240 + UInt32(index) * step
                if note == loopMark, index == note { track.append(.controlChange(channel: 0, controller: 111, value: 0), atTick: start) }
                if let markers, index == markers.start { track.append(.meta(.text(.marker, Array("loopStart".utf8))), atTick: start) }
                if let markers, index == markers.end { track.append(.meta(.text(.marker, Array("loopEnd".utf8))), atTick: start) }
                var notes: [(UInt8, UInt8)] = []
                if melody {
                    notes.append((0, UInt8(Self.melodyNotes[note] + pitchShift)))
                    if note % 2 == 0 { notes.append((1, UInt8((note % 4 == 0 ? 36 : 43) + pitchShift))) }
                }
                if drums {
                    notes.append((9, UInt8(42 + drumShift)))
                    if note % 4 == 0 { notes.append((9, UInt8(36 + drumShift))) }
                    if note % 4 == 2 { notes.append((9, UInt8(38 + drumShift))) }
                }
                for (channel, key) in notes { track.append(.noteOn(channel: channel, note: key, velocity: 100), atTick: start) }
                for (channel, key) in notes { track.append(.noteOff(channel: channel, note: key, velocity: 64), atTick: start + step - 20) }
            }
            track.append(.meta(.endOfTrack), atTick: 240 + UInt32(steps.count) * step)
            return MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])
        }
    }

    /// The song rendered as `smfplay render` renders it (``SongRenderer``), tail and all, read back.
    static func render(_ piece: Piece, performance: Performance = Performance(), loops: LoopSettings = .asWritten) throws -> [Float] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("performance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.wav").path
        let renderer = SongRenderer(synthesizer: try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required()))
        let options = RenderOptions(format: .wav, encoding: .float32, performance: performance, loops: loops)
        _ = try renderer.render(Song(file: piece.file), to: FilePath(output), options: options)
        return try AudioFileReader(path: FilePath(output)).readAll()
    }

    static func expectAlike(_ candidate: [Float], _ reference: [Float], _ what: String) {
        let comparison = SoundComparison(candidate: candidate, reference: reference, sampleRate: 44_100)
        #expect(comparison.mismatches().isEmpty, "\(what): \(comparison.mismatches())")
    }

    static func expectUnlike(_ candidate: [Float], _ wrong: [Float], _ what: String) {
        let comparison = SoundComparison(candidate: candidate, reference: wrong, sampleRate: 44_100)
        #expect(
            !comparison.mismatches().isEmpty,
            "\(what): sounds like the wrong version too (similarity \(comparison.spectralSimilarity), level \(comparison.levelDifference) dB): the test could not fail"
        )
    }

    @Test("--transpose 12 sounds like the song written an octave up, drums where they were")
    func transposeAnOctaveUp() throws {
        let played = try Self.render(Piece(), performance: Performance(transpose: 12))
        Self.expectAlike(played, try Self.render(Piece(pitchShift: 12)), "transposed by 12")
        Self.expectUnlike(played, try Self.render(Piece()), "transposed by 12 against the song as written")
        // The drums moved too would be other drums: an octave up, a kick (36) is a high tom (48).
        let drumsMoved = try Self.render(Piece(pitchShift: 12, drumShift: 12))
        Self.expectUnlike(played, drumsMoved, "transposed by 12 against the drums moved as well")
    }

    @Test("--tempo 2 sounds like the song written twice as fast, in half the time")
    func tempoTwiceAsFast() throws {
        let played = try Self.render(Piece(), performance: Performance(tempo: 2))
        let reference = try Self.render(Piece(microsecondsPerQuarter: 250_000))
        Self.expectAlike(played, reference, "at tempo 2")
        #expect(abs(played.count - reference.count) <= 2 * 4096, "\(played.count / 2) frames, the song written twice as fast \(reference.count / 2)")
        Self.expectUnlike(played, try Self.render(Piece()), "at tempo 2 against the song as written")
    }

    @Test("--solo 10, or --mute of every other channel, plays the drums alone; --mute 10 everything but them")
    func soloAndMute() throws {
        let drumsAlone = try Self.render(Piece(), performance: Performance(soloed: ChannelSet(numbers: [10])!))
        Self.expectAlike(drumsAlone, try Self.render(Piece(melody: false)), "--solo 10")
        Self.expectUnlike(drumsAlone, try Self.render(Piece()), "--solo 10 against the whole song")
        // Every channel muted but the drums' is the drums alone too.
        let allButDrums = try Self.render(Piece(), performance: Performance(muted: ChannelSet(numbers: (1...16).filter { $0 != 10 })!))
        Self.expectAlike(allButDrums, try Self.render(Piece(melody: false)), "--mute of every channel but 10")
        let noDrums = try Self.render(Piece(), performance: Performance(muted: ChannelSet(numbers: [10])!))
        Self.expectAlike(noDrums, try Self.render(Piece(drums: false)), "--mute 10")
        Self.expectUnlike(noDrums, try Self.render(Piece()), "--mute 10 against the whole song")
    }

    @Test("--loops 2 on a loop marked by controller 111: two loop lengths more, like the loop written out twice more, no jump at the seams")
    func controller111LoopPlaysAsWrittenOut() throws {
        let played = try Self.render(Piece(loopMark: 8), loops: LoopSettings(passes: 3, fadeSeconds: 0))
        let reference = try Self.render(Piece(loopMark: 8, writtenPasses: 3))
        Self.expectAlike(played, reference, "2 extra passes of the loop")
        let asWritten = try Self.render(Piece(loopMark: 8))
        Self.expectUnlike(played, asWritten, "2 extra passes against the song played once")
        // The loop runs from step 8 (2.25 s) to the song's end (4.25 s): 2 s, 88,200 frames.
        let added = (played.count - asWritten.count) / 2
        #expect(abs(added - 2 * 88_200) <= 4096, "\(added) frames added, not 2 loops of 88,200 (± a buffer of 4,096)")
        // At each seam (4.25 s and 6.25 s) no sample steps further from the one before than the music's own largest step.
        func largestStep(_ frames: Range<Int>) -> Float {
            frames.dropFirst().reduce(0) { max($0, abs(played[2 * $1] - played[2 * $1 - 2]), abs(played[2 * $1 + 1] - played[2 * $1 - 1])) }
        }
        let music = largestStep(44_100..<(4 * 44_100))
        for seam in [4.25, 6.25] {
            let frame = Int(seam * 44_100)
            let step = largestStep((frame - 441)..<(frame + 441))
            #expect(step <= music, "at the seam at \(seam) s a step of \(step), the music's largest \(music)")
        }
    }

    @Test("after the last pass the loop fades out over --fade seconds, and the song ends there")
    func fadeAfterTheLastPass() throws {
        let played = try Self.render(Piece(loopMark: 8), loops: LoopSettings(passes: 2, fadeSeconds: 3))
        // 0.25 s of silence, 16 steps of 0.25 s, 8 more, then 3 s of fade (and a tail that is silent at once).
        let expectedSeconds = 0.25 + 6 + 3
        let seconds = Double(played.count / 2) / 44_100
        #expect(abs(seconds - expectedSeconds) < 0.2, "\(seconds) s, not \(expectedSeconds)")
        func level(from start: Double, to end: Double) -> Double {
            let slice = played[Int(start * 44_100) * 2..<min(Int(end * 44_100) * 2, played.count)]
            return 10 * log10(max(slice.reduce(0) { $0 + Double($1 * $1) } / Double(max(slice.count, 1)), 1e-20))
        }
        let playing = level(from: 4, to: 6)
        let fading = level(from: 6.25 + 2.2, to: 6.25 + 2.9)
        #expect(playing - fading > 20, "the fade's last part is \(playing - fading) dB below the music, not 20 dB or more")
    }

    @Test("--loops inf goes round loopStart–loopEnd markers for ever; a seek past loopEnd plays the rest of the song, which ends")
    func markerLoopForEverAndASeekPastItsEnd() throws {
        let synthesizer = try Synthesizer(settings: DefaultRender.settings(), soundFontPath: try TestSoundFont.required())
        // The loop: steps 4 to 8 (1.25 s to 2.25 s); the song goes on to 4.25 s.
        let sequencer = Sequencer(
            song: Song(file: Piece(markers: (4, 8)).file), synthesizer: synthesizer, loops: LoopSettings(passes: nil, fadeSeconds: 0))
        var block = [Float](repeating: 0, count: 2 * 4096)
        for _ in 0..<(3 * Int(sequencer.endFrame) / 4096) {
            block.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: 4096) }
        }
        #expect(!sequencer.isAtEnd && sequencer.pass > 3 && sequencer.framesToEnd == nil, "pass \(sequencer.pass)")
        #expect(sequencer.position < Int64(2.25 * 44_100) + 4096, "at \(sequencer.position), past the loop's end")
        sequencer.seek(toSeconds: 3)
        var rendered = 0
        while !sequencer.isAtEnd, rendered < 10 * 44_100 {
            block.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: 4096) }
            rendered += 4096
        }
        #expect(sequencer.isAtEnd, "still playing \(rendered) frames after a seek 1.25 s before the end")
    }

    @Test("a key transposed off the keyboard is not played, and nothing breaks: the bass alone sounds, as written 24 up")
    func transposedPastTheTopIsDropped() throws {
        var piece = Piece(pitchShift: 40)
        piece.drums = false
        let played = try Self.render(piece, performance: Performance(transpose: 24))
        // The bass (76–83 + 24) still sounds; the melody (112–124 + 24) is off the keyboard.
        // As if the melody (channel 1) were not there: muted, the rest transposed alike.
        let bassAlone = try Self.render(piece, performance: Performance(transpose: 24, muted: ChannelSet(numbers: [1])!))
        Self.expectAlike(played, bassAlone, "transposed off the keyboard")
        // A melody kept (folded back, or played at the top key) would sound: the comparison hears it.
        Self.expectUnlike(played, try Self.render(piece, performance: Performance(transpose: 12)), "against a melody that sounds")
        #expect((played.map(abs).max() ?? 0) <= 1)
    }
}
