import Synthesis
import Testing

@testable import Playback

/// The limiter on the player's output: the audio thread's render keeps every peak at −1 dBFS, a
/// seek leaves nothing from before it in the limiter's delay line, and what follows a cut is
/// heard at once, not after the look-ahead's silence.
@Suite struct LimitedPlaybackTests {
    /// An organ chord at the start (0.2 s), silence, then the organ again from 2 s to 4 s.
    static let twoChords = TestSongs.song { track in
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        for (start, end) in [(0.0, 0.2), (2.0, 4.0)] {
            for note: UInt8 in [48, 55, 60] { track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: TestSongs.tick(start)) }
            for note: UInt8 in [48, 55, 60] { track.append(.noteOff(channel: 0, note: note, velocity: 64), atTick: TestSongs.tick(end)) }
        }
    }

    /// The two chords through the engine: 1.5 s, where all is silent again, then a seek to 1.95 s
    /// (50 ms before the second chord), then 0.5 s. Returns the audio and the frame of the seek.
    static func renderAcrossCut(limitsPeaks: Bool) throws -> (samples: [Float], seekFrame: Int) {
        let rate = 44_100.0
        let synthesizer = try Synthesizer(
            settings: SynthesizerSettings(sampleRate: rate, gain: 0.3, reverb: nil, chorus: nil),
            soundFontPath: TestSoundFont.required())
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: limitsPeaks)
        let sequencer = Sequencer(song: twoChords, synthesizer: synthesizer)
        engine.post(.load(PlayingSong(sequencer), generation: 0, fadeOut: false))
        let block = 441
        var samples = [Float](repeating: 0, count: 2 * 200 * block)
        samples.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<200 {
                if index == 150 { engine.post(.seek(sequencer.plan(seekingTo: Int64(1.95 * rate)), generation: 0, number: 0, fadeOut: false)) }
                engine.render(buffer.baseAddress! + 2 * index * block, frames: block)
            }
        }
        return (samples, 150 * block)
    }

    @Test(
        "below the ceiling, the limiter's output starts as the unlimited one, frame for frame, and after a cut the sound comes back as soon: no look-ahead's 5 ms of silence"
    )
    func cutsAreHeardAtOnce() throws {
        let (limited, seekFrame) = try Self.renderAcrossCut(limitsPeaks: true)
        let (unlimited, _) = try Self.renderAcrossCut(limitsPeaks: false)
        let peak = unlimited.map(abs).max() ?? 0
        try #require(peak > 0.05 && peak < PeakLimiter.defaultCeiling, "the organ sounds, below the ceiling: peak \(peak)")
        func firstSound(_ samples: [Float], from frame: Int) -> Int? {
            (frame..<samples.count / 2).first { abs(samples[2 * $0]) > 1e-4 }
        }
        // The start: the same synthesizer's output, not delayed.
        let sameStart = limited[0..<2 * 22_050] == unlimited[0..<2 * 22_050]
        #expect(sameStart)
        let startsAt = firstSound(unlimited, from: 0) ?? -1
        #expect((0..<1_000).contains(startsAt), "the first chord starts at frame \(startsAt)")
        // Silent before the cut, so that what comes after it is the second chord alone.
        let quietBefore = (seekFrame - 4_410..<seekFrame).allSatisfy { abs(unlimited[2 * $0]) <= 1e-4 && abs(limited[2 * $0]) <= 1e-4 }
        #expect(quietBefore)
        // After the cut: the same within FluidSynth's block of 64 frames (the synthesizer of the
        // limited output has rendered the look-ahead further, so its blocks fall elsewhere).
        let soundAgain = firstSound(unlimited, from: seekFrame) ?? -1
        let limitedAgain = firstSound(limited, from: seekFrame) ?? -1
        #expect(
            soundAgain > seekFrame && abs(limitedAgain - soundAgain) < 64,
            "after the cut: limited \(limitedAgain - seekFrame), unlimited \(soundAgain - seekFrame) frames")
    }

    @Test func playbackIsLimitedAndASeekLeavesNothingBehind() throws {
        // Far too loud: the organ at gain 4 peaks well above full scale. The seek goes to the
        // silence after its note-off.
        let (samples, seekFrame) = try SeekFadeTests.renderAcrossSeek(fadeOut: true, gain: 4, limitsPeaks: true)
        let peak = samples.map(abs).max() ?? 0
        #expect(peak <= PeakLimiter.defaultCeiling, "peak \(peak)")
        #expect(peak > 0.8, "the organ is limited, not silent: peak \(peak)")
        // The fade takes the first 256 frames of the block the seek is taken in; after that, silence.
        let leftover = ((seekFrame + PlaybackEngine.fadeFrames)..<(samples.count / 2)).map { abs(samples[2 * $0]) }.max() ?? 0
        #expect(leftover == 0, "sound from before the seek came out after it: \(leftover)")
    }

    @Test("through the player, where the music is heard counts the limiter's look-ahead as well as what the output holds")
    func theHeardPlaceCountsTheLookAhead() throws {
        let (player, sink) = try SeekHandoverTests.player(playing: TestSongs.melody, latencySeconds: 0.05)
        // A 50 ms output asks for 551 frames at a time.
        var worst = 0.0
        while sink.recorded.count / 2 < 44_100 {
            sink.record(frames: 551)
            let handedOut = Double(sink.recorded.count / 2) / 44_100
            if handedOut > 0.1 { worst = max(worst, abs(player.update().heardSeconds - (handedOut - 0.05))) }
        }
        // Without the look-ahead, the place shown runs 219 frames (5 ms) ahead of the sound.
        #expect(worst < 0.001, "the music heard was shown up to \(worst) s from where it was")
    }
}
