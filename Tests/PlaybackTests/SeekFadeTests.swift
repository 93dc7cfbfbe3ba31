import SMF
import Synthesis
import Testing

@testable import Playback

/// A seek or a skip that is not flushed fades the sound out over `PlaybackEngine.fadeFrames`,
/// then cuts every voice and jumps: the notes sounding stop at the seek, and without a step in
/// the signal (heard as a click).
@Suite struct SeekFadeTests {
    /// An organ holding a low C for 4 s: a steady, loud waveform to cut into.
    static let organ = TestSongs.song { track in
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        track.append(.noteOn(channel: 0, note: 48, velocity: 120), atTick: 0)
        track.append(.noteOff(channel: 0, note: 48, velocity: 64), atTick: TestSongs.tick(4))
    }

    /// The largest change from one sample to the next on the left channel.
    static func largestStep(_ samples: [Float], frames: Range<Int>) -> Float {
        frames.dropFirst().reduce(0) { max($0, abs(samples[2 * $1] - samples[2 * ($1 - 1)])) }
    }

    /// Renders 1 s of the organ, posts a seek to its silent end, renders 0.1 s more; returns the
    /// whole render and the frame where the seek was posted. The limiter is off unless asked for.
    static func renderAcrossSeek(fadeOut: Bool, gain: Double = 0.5, limitsPeaks: Bool = false) throws -> (samples: [Float], seekFrame: Int) {
        let rate = 44_100.0
        let synthesizer = try Synthesizer(
            settings: SynthesizerSettings(sampleRate: rate, gain: gain, reverb: nil, chorus: nil),
            soundFontPath: TestSoundFont.required())
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: limitsPeaks)
        let sequencer = Sequencer(song: organ, synthesizer: synthesizer)
        engine.post(.load(PlayingSong(sequencer), generation: 0, fadeOut: false))
        let block = 512
        let seekFrame = 86 * block
        var samples = [Float](repeating: 0, count: 2 * (seekFrame + 9 * block))
        samples.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: seekFrame + 9 * block, by: block) {
                if start == seekFrame {
                    engine.post(.seek(sequencer.plan(seekingTo: Int64(4.5 * rate)), generation: 0, number: 0, fadeOut: fadeOut))
                }
                engine.render(buffer.baseAddress! + 2 * start, frames: block)
            }
        }
        return (samples, seekFrame)
    }

    @Test("a faded seek makes no step larger than the steady tone's own")
    func fadedSeekDoesNotClick() throws {
        let (samples, seekFrame) = try Self.renderAcrossSeek(fadeOut: true)
        let steady = Self.largestStep(samples, frames: seekFrame - 22_050..<seekFrame)
        try #require(steady > 0.001, "the organ is not sounding before the seek")
        let across = Self.largestStep(samples, frames: seekFrame - 1..<samples.count / 2)
        #expect(across <= steady * 1.05, "largest step across the seek \(across), in the steady tone \(steady)")
        // The fade is short: silence soon after.
        let afterFade = seekFrame + PlaybackEngine.fadeFrames + 64
        #expect(Self.largestStep(samples, frames: afterFade..<samples.count / 2) < steady / 10)
    }

    @Test("unfaded, the same seek cuts the tone at once, with a step far larger than the steady tone's own (the click the fade takes away)")
    func unfadedSeekClicks() throws {
        let (samples, seekFrame) = try Self.renderAcrossSeek(fadeOut: false)
        let steady = Self.largestStep(samples, frames: seekFrame - 22_050..<seekFrame)
        let across = Self.largestStep(samples, frames: seekFrame - 1..<samples.count / 2)
        #expect(across > steady * 3, "largest step across the seek \(across), in the steady tone \(steady)")
    }
}
