@testable import Playback
import SMF
import Synthesis
import Testing

/// The limiter on the player's output: the audio thread's render keeps every peak at −1 dBFS, and a
/// seek leaves nothing from before it in the limiter's delay line.
@Suite struct LimitedPlaybackTests {
    @Test func playbackIsLimitedAndASeekLeavesNothingBehind() throws {
        let rate = 44_100.0
        // Far too loud: the organ at gain 4 peaks well above full scale.
        let synthesizer = try Synthesizer(settings: SynthesizerSettings(sampleRate: rate, gain: 4, reverb: nil, chorus: nil),
                                          soundFontPath: TestSoundFont.required())
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: true)
        let sequencer = Sequencer(song: SeekFadeTests.organ, synthesizer: synthesizer)
        engine.post(.load(sequencer, generation: 0, fadeOut: false))
        let block = 512
        let seekFrame = 86 * block
        var samples = [Float](repeating: 0, count: 2 * (seekFrame + 20 * block))
        samples.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: seekFrame + 20 * block, by: block) {
                if start == seekFrame {
                    // To the silence after the organ's note-off.
                    engine.post(.seek(sequencer.plan(seekingTo: Int64(4.5 * rate)), generation: 0, number: 0, fadeOut: true))
                }
                engine.render(buffer.baseAddress! + 2 * start, frames: block)
            }
        }
        let peak = samples.map(abs).max() ?? 0
        #expect(peak <= PeakLimiter.defaultCeiling, "peak \(peak)")
        #expect(peak > 0.8, "the organ is limited, not silent: peak \(peak)")
        // The fade takes the first 256 frames of the block the seek is taken in; after that, silence.
        let afterCut = (seekFrame + PlaybackEngine.fadeFrames)..<(seekFrame + 20 * block)
        let leftover = afterCut.map { abs(samples[2 * $0]) }.max() ?? 0
        #expect(leftover == 0, "sound from before the seek came out after it: \(leftover)")
    }
}
