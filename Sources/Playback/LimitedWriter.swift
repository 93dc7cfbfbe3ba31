import AudioOutput
import Loudness
import Synthesis

/// Writes rendered audio to a file (or a stream) through the peak limiter, taking back the limiter's latency:
/// the file gets the same frames, at the same times, as without it (and the same samples, where
/// nothing needed limiting). A normalizing gain goes before the limiter; the loudness meter, when
/// there is one, hears what is written.
struct LimitedWriter {
    let writer: any AudioSampleWriter
    /// Nil writes the audio as it comes.
    let limiter: PeakLimiter?
    /// Applied before the limiter: 1 leaves the samples as they are.
    let gain: Float
    let meter: LoudnessMeterThread?
    /// Frames still to drop from the front: the limiter's delay line, silent at first.
    private var latencyToDrop: Int

    init(writer: any AudioSampleWriter, limiter: PeakLimiter?, gain: Float = 1, meter: LoudnessMeterThread? = nil) {
        self.writer = writer
        self.limiter = limiter
        self.gain = gain
        self.meter = meter
        limiter?.reset()
        latencyToDrop = limiter?.latencyFrames ?? 0
    }

    /// Writes interleaved stereo frames, scaled and limited (in place).
    mutating func write(_ samples: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFileError) {
        if gain != 1 {
            for index in 0..<(2 * frames) { samples[index] *= gain }
        }
        limiter?.process(samples, frames: frames)
        let dropped = min(latencyToDrop, frames)
        latencyToDrop -= dropped
        guard frames > dropped else { return }
        try send(UnsafeBufferPointer(start: samples + 2 * dropped, count: 2 * (frames - dropped)))
    }

    /// Writes what the limiter still holds, using `scratch` (room for its latency, in frames).
    mutating func finish(scratch: UnsafeMutablePointer<Float>) throws(AudioFileError) {
        guard let limiter else { return }
        let held = limiter.latencyFrames - latencyToDrop
        guard held > 0 else { return }
        scratch.update(repeating: 0, count: 2 * limiter.latencyFrames)
        limiter.process(scratch, frames: limiter.latencyFrames)
        try send(UnsafeBufferPointer(start: scratch + 2 * (limiter.latencyFrames - held), count: 2 * held))
    }

    private func send(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {
        meter?.add(samples)
        try writer.write(samples)
    }
}
