import Foundation

/// A look-ahead peak limiter for the master output: no sample ever leaves it above the ceiling
/// (−1 dBFS), a signal whose peaks stay below the ceiling leaves it bit for bit as it came, and the
/// gain falls smoothly before a peak (it sees the peak coming, `lookAheadFrames` ahead) and comes
/// back slowly after it, so that the limiting is not heard as distortion or pumping.
///
/// For each frame the gain the frame needs is `ceiling / peak` (1 when under the ceiling). The gain
/// applied to the frame leaving the delay line, `lookAheadFrames − 1` frames old, is the mean over
/// the last `lookAheadFrames` frames of a release-smoothed running minimum of those needs. Every
/// value in that mean is at most the need of the frame leaving: each is a minimum over a window that
/// holds it, and the release only ever lowers a value below its minimum. So the mean is at most the
/// need too, and the frame leaves at or below the ceiling: an attack of exactly the look-ahead, with
/// no overshoot. A last clamp to the ceiling catches what float rounding could add (a few parts in
/// 10⁷); by construction it changes nothing else.
///
/// In true-peak mode (normalized renders, which must stay at or below −1 dBTP) a frame's need also
/// counts the peaks between it and its neighbours (``TruePeakInterpolator``, 8× oversampled): the
/// audio is held back the interpolator's lag more, so that each need still meets its own frame.
///
/// Stereo-linked: both channels get the same gain, so the stereo image does not move. A reference
/// type, as it owns its buffers, made once: ``process(_:frames:)`` allocates nothing, takes no lock
/// and runs on the audio thread.
public final class PeakLimiter {
    /// −1 dBFS.
    public static let defaultCeiling: Float = 0.891_250_9
    /// −1.2 dBFS, for true-peak mode: what is to read at most −1 dBTP on any meter. Meters look
    /// between samples in their own ways: on songs this limiter held at −1.00 (its own 8×
    /// interpolation; −0.99 by a 16× polyphase resampling), libebur128 read up to −0.92 dBTP.
    public static let truePeakCeiling: Float = 0.870_963_6
    /// 5 ms, FluidSynth 2.6's look-ahead: long enough for a smooth attack, short enough not to be
    /// heard as latency.
    public static let lookAheadSeconds = 0.005
    /// The time constant of the gain's return after a peak: slow enough not to pump on a beat,
    /// quick enough that a loud chord does not hold the next phrase down.
    public static let releaseSeconds = 0.12

    public let ceiling: Float
    /// How far ahead the limiter looks, and how long its attack is.
    public let lookAheadFrames: Int
    /// How many frames late the audio comes out: the look-ahead less one, and the true-peak
    /// interpolator's lag in true-peak mode. The delay line's length.
    public let latencyFrames: Int
    /// Looks between samples in true-peak mode; nil in sample-peak mode.
    private let interpolator: TruePeakInterpolator?
    /// The peak between the previous frame and the one before, in true-peak mode.
    private var previousBetween: Float = 0

    private let releaseCoefficient: Float
    /// The last `latencyFrames` input frames (stereo), a ring.
    private let delay: UnsafeMutablePointer<Float>
    /// Room for `latencyFrames` frames, where the fast path keeps a block's last frames while the
    /// ring is still being emptied.
    private let delayScratch: UnsafeMutablePointer<Float>
    /// A running minimum of the gains needed over the last `lookAheadFrames` frames: a deque, in a
    /// ring, of frame numbers and gains, the gains rising from front to back.
    private let minimumFrames: UnsafeMutablePointer<Int>
    private let minimumGains: UnsafeMutablePointer<Float>
    private var minimumFront = 0
    private var minimumCount = 0
    /// The release-smoothed gains of the last `lookAheadFrames` frames, a ring, and their sum.
    private let smoothed: UnsafeMutablePointer<Float>
    private var smoothedSum = 0.0
    /// How many of those are below 1: none means the gain is exactly 1.
    private var smoothedBelowOne = 0
    private var released: Float = 1
    private var frame = 0
    /// The lowest gain applied since the last ``reset()``.
    public private(set) var lowestGain: Float = 1

    /// `truePeaks` limits the peaks between samples too (8× oversampled), not only the samples.
    public init(sampleRate: Double, ceiling: Float = PeakLimiter.defaultCeiling, truePeaks: Bool = false) {
        self.ceiling = ceiling
        lookAheadFrames = max(2, Int((Self.lookAheadSeconds * sampleRate).rounded()))
        interpolator = truePeaks ? TruePeakInterpolator() : nil
        latencyFrames = lookAheadFrames - 1 + (truePeaks ? TruePeakInterpolator.delay : 0)
        releaseCoefficient = Float(1 - exp(-1 / (Self.releaseSeconds * sampleRate)))
        delay = .allocate(capacity: 2 * latencyFrames)
        delayScratch = .allocate(capacity: 2 * latencyFrames)
        minimumFrames = .allocate(capacity: lookAheadFrames)
        minimumGains = .allocate(capacity: lookAheadFrames)
        smoothed = .allocate(capacity: lookAheadFrames)
        reset()
    }

    deinit {
        delay.deallocate()
        delayScratch.deallocate()
        minimumFrames.deallocate()
        minimumGains.deallocate()
        smoothed.deallocate()
    }

    /// Forgets everything: what is in the delay line is dropped (after a cut, it belonged to what
    /// was cut), and the gain is 1.
    public func reset() {
        delay.update(repeating: 0, count: 2 * latencyFrames)
        interpolator?.reset()
        previousBetween = 0
        smoothed.update(repeating: 1, count: lookAheadFrames)
        smoothedSum = Double(lookAheadFrames)
        smoothedBelowOne = 0
        minimumFront = 0
        minimumCount = 0
        released = 1
        frame = 0
        lowestGain = 1
    }

    /// Whether nothing is being limited or about to be: every gain in the windows is 1. (The
    /// running minimum's front is its smallest need: when that is 1, so are all the others.)
    private var isIdle: Bool {
        smoothedBelowOne == 0 && released == 1 && (minimumCount == 0 || minimumGains[minimumFront] == 1)
    }

    /// The largest magnitude among the samples. Compared as bit patterns with the sign bit
    /// cleared, which order as the magnitudes do (a NaN comes out above any number, and so takes
    /// the limiting path): an integer maximum, which the compiler vectorizes, where a float one
    /// (NaN rules) and Swift's generic SIMD functions (a call per vector) stay slow. It runs on
    /// every buffer.
    private func peak(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Float {
        let count = 2 * frames
        var peakBits: UInt32 = 0
        samples.withMemoryRebound(to: UInt32.self, capacity: count) { bits in
            for index in 0..<count { peakBits = max(peakBits, bits[index] & 0x7FFF_FFFF) }
        }
        return Float(bitPattern: peakBits)
    }

    /// What ``process(_:frames:)`` does when nothing needs limiting, faster (most of the time, a
    /// song is all under the ceiling): the frames only pass through the delay line, and the
    /// running minimum is left holding one gain of 1, the state the frame-by-frame path reaches.
    private func delayOnly(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        interpolator?.skip(samples, frames: frames)
        previousBetween = 0
        let length = latencyFrames
        // The ring's oldest frame: the stream is the ring from there, then the block.
        let oldest = frame % length
        if frames >= length {
            // Of the stream, the first `frames` frames leave and the last `length` stay: moved in
            // bulk (four copies and a move), not a frame at a time, which cost ten times as much.
            delayScratch.update(from: samples + 2 * (frames - length), count: 2 * length)
            (samples + 2 * length).update(from: samples, count: 2 * (frames - length))
            let firstRun = length - oldest
            samples.update(from: delay + 2 * oldest, count: 2 * firstRun)
            (samples + 2 * firstRun).update(from: delay, count: 2 * oldest)
            let newOldest = (frame + frames) % length
            let run = length - newOldest
            (delay + 2 * newOldest).update(from: delayScratch, count: 2 * run)
            delay.update(from: delayScratch + 2 * run, count: 2 * newOldest)
        } else {
            var delaySlot = oldest
            for index in 0..<frames {
                let left = samples[2 * index]
                let right = samples[2 * index + 1]
                samples[2 * index] = delay[2 * delaySlot]
                samples[2 * index + 1] = delay[2 * delaySlot + 1]
                delay[2 * delaySlot] = left
                delay[2 * delaySlot + 1] = right
                delaySlot += 1
                if delaySlot == length { delaySlot = 0 }
            }
        }
        frame += frames
        minimumFront = 0
        minimumCount = 1
        minimumFrames[0] = frame - 1
        minimumGains[0] = 1
    }

    /// What the quiet path must keep under the ceiling: the block's peak, and in true-peak mode
    /// the most any point between its frames (and the last ones before it) can reach.
    private func quietPeak(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Float {
        let blockPeak = peak(samples, frames: frames)
        guard let interpolator else { return blockPeak }
        return max(blockPeak, interpolator.historyPeak) * interpolator.overshootBound
    }

    /// The largest gain reduction since the last reset, in dB (0 when nothing was limited).
    public var largestReductionDecibels: Double {
        lowestGain >= 1 ? 0 : -20 * log10(Double(lowestGain))
    }

    /// Limits interleaved stereo frames in place; they come out `latencyFrames` later (the first
    /// `latencyFrames` after a reset are silence).
    public func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        if isIdle, quietPeak(samples, frames: frames) <= ceiling {
            delayOnly(samples, frames: frames)
            return
        }
        // The state in locals for the loop: it runs for every frame on the audio thread.
        let window = lookAheadFrames
        let ceiling = ceiling
        let releaseCoefficient = releaseCoefficient
        let delay = delay
        let minimumFrames = minimumFrames
        let minimumGains = minimumGains
        let smoothed = smoothed
        var minimumFront = minimumFront
        var minimumCount = minimumCount
        var smoothedSum = smoothedSum
        var smoothedBelowOne = smoothedBelowOne
        var released = released
        var frame = frame
        var lowestGain = lowestGain
        let delayLength = latencyFrames
        let interpolator = interpolator
        var previousBetween = previousBetween
        var slot = frame % window
        var delaySlot = frame % delayLength
        for index in 0..<frames {
            let left = samples[2 * index]
            let right = samples[2 * index + 1]
            var peak = max(abs(left), abs(right))
            if let interpolator {
                // The frame whose need this is, `delay` frames back (the delay line is as much
                // longer), and the peaks on either side of it.
                let between = interpolator.add(left: left, right: right)
                let aligned = delay[2 * ((delaySlot + delayLength - TruePeakInterpolator.delay) % delayLength)]
                let alignedRight = delay[2 * ((delaySlot + delayLength - TruePeakInterpolator.delay) % delayLength) + 1]
                peak = max(abs(aligned), abs(alignedRight), previousBetween, between)
                previousBetween = between
            }
            let needed: Float = peak > ceiling ? ceiling / peak : 1
            // The running minimum: drop what left the window, then what the new need makes useless,
            // and add the new need. The deque then holds at most `window` needs (frames
            // frame − window + 1 … frame), as many as its ring has room for.
            if minimumCount > 0, minimumFrames[minimumFront] <= frame - window {
                minimumFront += 1
                if minimumFront == window { minimumFront = 0 }
                minimumCount -= 1
            }
            while minimumCount > 0 {
                var back = minimumFront + minimumCount - 1
                if back >= window { back -= window }
                guard minimumGains[back] >= needed else { break }
                minimumCount -= 1
            }
            assert(minimumCount < window, "the running minimum's deque overflows its ring")
            var end = minimumFront + minimumCount
            if end >= window { end -= window }
            minimumFrames[end] = frame
            minimumGains[end] = needed
            minimumCount += 1
            let minimum = minimumGains[minimumFront]
            // Down at once, back up slowly; never above the minimum.
            released = minimum <= released ? minimum : min(minimum, released + (minimum - released) * releaseCoefficient)
            // Back at 1 once nothing is limited: the gain is then exactly 1, not nearly.
            if minimum == 1, released > 1 - 1e-6 { released = 1 }
            // The mean over the window.
            let leaving = smoothed[slot]
            if leaving < 1 { smoothedBelowOne -= 1 }
            if released < 1 { smoothedBelowOne += 1 }
            smoothed[slot] = released
            slot += 1
            if slot == window { slot = 0 }
            let gain: Float
            if smoothedBelowOne == 0 {
                gain = 1
                smoothedSum = Double(window)
            } else {
                smoothedSum += Double(released) - Double(leaving)
                gain = min(1, Float(smoothedSum / Double(window)))
            }
            // The delay line: the frame `latencyFrames` frames old leaves, the new one goes in.
            let outLeft = delay[2 * delaySlot]
            let outRight = delay[2 * delaySlot + 1]
            delay[2 * delaySlot] = left
            delay[2 * delaySlot + 1] = right
            delaySlot += 1
            if delaySlot == delayLength { delaySlot = 0 }
            if gain == 1 {
                samples[2 * index] = outLeft
                samples[2 * index + 1] = outRight
            } else {
                samples[2 * index] = min(ceiling, max(-ceiling, outLeft * gain))
                samples[2 * index + 1] = min(ceiling, max(-ceiling, outRight * gain))
                if gain < lowestGain { lowestGain = gain }
            }
            frame += 1
        }
        self.minimumFront = minimumFront
        self.minimumCount = minimumCount
        self.smoothedSum = smoothedSum
        self.smoothedBelowOne = smoothedBelowOne
        self.released = released
        self.frame = frame
        self.lowestGain = lowestGain
        self.previousBetween = previousBetween
    }
}
