import Synthesis
import Testing

@testable import Playback

/// A pause fades the sound out and holds the song where it is; going on fades it back in from
/// there. Stopping the output mid-waveform instead is a click at each pause and each resume.
@Suite struct PauseFadeTests {
    @Test("hold fades out without a step, renders silence without moving the song on; proceed fades in from the same place")
    func holdAndProceed() throws {
        let rate = 44_100.0
        let synthesizer = try Synthesizer(
            settings: SynthesizerSettings(sampleRate: rate, gain: 0.5, reverb: nil, chorus: nil),
            soundFontPath: TestSoundFont.required())
        let engine = PlaybackEngine(tailLimitSeconds: 1, sampleRate: rate, limitsPeaks: false)
        let sequencer = Sequencer(song: SeekFadeTests.organ, synthesizer: synthesizer)
        engine.post(.load(PlayingSong(sequencer), generation: 0, fadeOut: false))
        let block = 512
        let (holdAt, proceedAt, end) = (43 * block, 86 * block, 100 * block)
        var samples = [Float](repeating: 0, count: 2 * end)
        var heldAt: Int64?
        samples.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: end, by: block) {
                if start == holdAt { engine.post(.hold) }
                if start == proceedAt {
                    heldAt = engine.position.frame
                    engine.post(.proceed)
                }
                engine.render(buffer.baseAddress! + 2 * start, frames: block)
            }
        }
        let steady = SeekFadeTests.largestStep(samples, frames: holdAt - 11_025..<holdAt)
        try #require(steady > 0.001, "the organ is not sounding before the pause")
        #expect(SeekFadeTests.largestStep(samples, frames: holdAt..<end) <= steady * 1.05, "a step larger than the tone's own")
        // Silent while held, after the fade.
        let silence = holdAt + PlaybackEngine.fadeFrames..<proceedAt
        #expect(silence.allSatisfy { samples[2 * $0] == 0 && samples[2 * $0 + 1] == 0 })
        // The song stood still: it went on from where the fade ended, not where time had got to.
        #expect(heldAt == Int64(holdAt + PlaybackEngine.fadeFrames))
        #expect(engine.position.frame == Int64(holdAt + PlaybackEngine.fadeFrames + end - proceedAt))
        // And sounds again, at full level once faded in.
        let after = proceedAt + PlaybackEngine.fadeFrames..<end
        #expect(SeekFadeTests.largestStep(samples, frames: after) > steady * 0.9)
    }
}
