import AudioOutput
import Synthesis

/// Writes rendered audio to a file (or a stream) through the peak limiter, taking back the limiter's latency:
/// the file gets the same frames, at the same times, as without it (and the same samples, where
/// nothing needed limiting).
struct LimitedWriter {
    let writer: any AudioSampleWriter
    /// Nil writes the audio as it comes.
    let limiter: PeakLimiter?
    /// Frames still to drop from the front: the limiter's delay line, silent at first.
    private var latencyToDrop: Int

    init(writer: any AudioSampleWriter, limiter: PeakLimiter?) {
        self.writer = writer
        self.limiter = limiter
        limiter?.reset()
        latencyToDrop = limiter?.latencyFrames ?? 0
    }

    /// Writes interleaved stereo frames, limited (in place).
    mutating func write(_ samples: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFileError) {
        limiter?.process(samples, frames: frames)
        let dropped = min(latencyToDrop, frames)
        latencyToDrop -= dropped
        guard frames > dropped else { return }
        try writer.write(UnsafeBufferPointer(start: samples + 2 * dropped, count: 2 * (frames - dropped)))
    }

    /// Writes what the limiter still holds, using `scratch` (room for its latency, in frames).
    mutating func finish(scratch: UnsafeMutablePointer<Float>) throws(AudioFileError) {
        guard let limiter else { return }
        let held = limiter.latencyFrames - latencyToDrop
        guard held > 0 else { return }
        scratch.update(repeating: 0, count: 2 * limiter.latencyFrames)
        limiter.process(scratch, frames: limiter.latencyFrames)
        try writer.write(UnsafeBufferPointer(start: scratch + 2 * (limiter.latencyFrames - held), count: 2 * held))
    }
}
