import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// Renders short notes at known times and finds their onsets in the audio.
struct SequencerTimingTests {
    static let sampleRate = 44_100.0
    /// 480 ticks per quarter at 120 bpm: 960 ticks a second.
    static let ticksPerSecond = 960.0

    /// Hi wood block hits on the percussion channel at irregular times, each cut short.
    static func woodBlockSong() -> (song: Song, ticks: [UInt32]) {
        let ticks = (0..<24).map { (index: Int) -> UInt32 in
            let jitter: Int = (index * index % 7) * 13
            return UInt32(240 + index * 331 + jitter)
        }
        var track = Track()
        for tick in ticks {
            track.append(.noteOn(channel: 9, note: 76, velocity: 120), atTick: tick)
            track.append(.noteOn(channel: 9, note: 76, velocity: 0), atTick: tick + 40)
        }
        track.append(.meta(.endOfTrack), atTick: ticks.last! + 400)
        return (Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])), ticks)
    }

    static func singleHitAtZero() -> Song {
        var track = Track()
        track.append(.noteOn(channel: 9, note: 76, velocity: 120), atTick: 0)
        track.append(.noteOn(channel: 9, note: 76, velocity: 0), atTick: 40)
        track.append(.meta(.endOfTrack), atTick: 400)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    static func render(_ song: Song, bufferFrames: Int) throws -> [Float] {
        let settings = SynthesizerSettings(sampleRate: sampleRate, gain: 0.5, reverb: nil, chorus: nil)
        let sequencer = Sequencer(song: song, synthesizer: try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required()))
        var audio = [Float](repeating: 0, count: Int(sequencer.endFrame + 1) * 2)
        var buffer = [Float](repeating: 0, count: bufferFrames * 2)
        var frame = 0
        while !sequencer.isAtEnd {
            buffer.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: bufferFrames) }
            let count = min(bufferFrames * 2, audio.count - frame * 2)
            audio.replaceSubrange(frame * 2..<frame * 2 + count, with: buffer.prefix(count))
            frame += bufferFrames
        }
        return audio
    }

    /// The first frame of each sound that follows at least 100 ms below the threshold.
    static func onsets(in audio: [Float], threshold: Float = 0.02) -> [Int] {
        var onsets: [Int] = []
        let quietNeeded = Int(sampleRate / 10)
        var quietFrames = quietNeeded + 1
        for frame in 0..<audio.count / 2 {
            let level = max(abs(audio[2 * frame]), abs(audio[2 * frame + 1]))
            if level > threshold {
                if quietFrames > quietNeeded { onsets.append(frame) }
                quietFrames = 0
            } else {
                quietFrames += 1
            }
        }
        return onsets
    }

    @Test(arguments: [1, 37, 64, 100, 441, 4096])
    func everyNoteStartsWithinOneBlockOfItsTime(bufferFrames: Int) throws {
        let (song, ticks) = Self.woodBlockSong()
        let onsets = Self.onsets(in: try Self.render(song, bufferFrames: bufferFrames))
        let expected = ticks.map { Int((Double($0) / Self.ticksPerSecond * Self.sampleRate).rounded()) }
        try #require(onsets.count == expected.count, "found \(onsets.count) onsets, expected \(expected.count)")
        // The sample's attack takes a few frames to cross the threshold: measure
        // it on a hit at frame 0, where no block boundary can delay it.
        let single = Self.onsets(in: try Self.render(Self.singleHitAtZero(), bufferFrames: bufferFrames))
        let attack = try #require(single.first)
        #expect(attack < 64, "a hit at frame 0 crosses the threshold only at frame \(attack)")
        for (index, (onset, time)) in zip(onsets, expected).enumerated() {
            // FluidSynth can only act late, at the next 64-frame block boundary;
            // the previous hit's faint release moves the threshold crossing by a few frames.
            #expect(
                (-8..<64).contains(onset - time - attack),
                "note \(index) starts \(onset - time - attack) frames late with \(bufferFrames)-frame buffers")
        }
    }

    @Test func masterVolumeSystemExclusiveSilencesAndRestores() throws {
        var track = Track()
        track.append(.noteOn(channel: 9, note: 76, velocity: 120), atTick: 0)
        track.append(.noteOn(channel: 9, note: 76, velocity: 0), atTick: 40)
        track.append(.systemExclusive([0x7F, 0x7F, 0x04, 0x01, 0x00, 0x00, 0xF7]), atTick: 300)
        track.append(.noteOn(channel: 9, note: 76, velocity: 120), atTick: 480)
        track.append(.noteOn(channel: 9, note: 76, velocity: 0), atTick: 520)
        track.append(.systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]), atTick: 900)
        track.append(.noteOn(channel: 9, note: 76, velocity: 120), atTick: 960)
        track.append(.noteOn(channel: 9, note: 76, velocity: 0), atTick: 1000)
        track.append(.meta(.endOfTrack), atTick: 1400)
        let song = Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
        let onsets = Self.onsets(in: try Self.render(song, bufferFrames: 512))
        // The second hit is at master volume 0; GM System On brings the third back.
        #expect(onsets.map { Int((Double($0) / Self.sampleRate * 2).rounded(.down)) } == [0, 2])
    }
}
