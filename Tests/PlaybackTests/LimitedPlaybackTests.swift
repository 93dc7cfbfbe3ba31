@testable import Playback
import Synthesis
import Testing

/// The limiter on the player's output: the audio thread's render keeps every peak at −1 dBFS, and a
/// seek leaves nothing from before it in the limiter's delay line.
@Suite struct LimitedPlaybackTests {
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
}
