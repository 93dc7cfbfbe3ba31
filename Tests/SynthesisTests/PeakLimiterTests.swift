import Foundation
import TestSupport
import Testing

@testable import Synthesis

/// The limiter on signals made to test it: whatever comes in, nothing goes out above the ceiling;
/// what stays under it goes out unchanged; the gain moves smoothly.
struct PeakLimiterTests {
    static let rate = 44_100.0

    /// Runs `input` (interleaved stereo) through a new limiter in blocks of `block` frames.
    static func limit(_ input: [Float], block: Int = 512, limiter: PeakLimiter = PeakLimiter(sampleRate: rate)) -> [Float] {
        var samples = input
        samples.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            let frames = buffer.count / 2
            while start < frames {
                let count = min(block, frames - start)
                limiter.process(buffer.baseAddress! + 2 * start, frames: count)
                start += count
            }
        }
        return samples
    }

    static func noise(frames: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var generator = SeededRandom(seed: seed)
        return (0..<2 * frames).map { _ in Float.random(in: -amplitude...amplitude, using: &generator) }
    }

    @Test("loud noise, impulses and square bursts never leave above −1 dBFS", arguments: [1, 64, 512, 4096])
    func neverAboveTheCeiling(block: Int) {
        let limiter = PeakLimiter(sampleRate: Self.rate)
        var input = Self.noise(frames: 44_100, amplitude: 8, seed: 1)
        // Lone impulses far above everything, and a square burst that starts at full scale.
        for frame in stride(from: 1000, to: 44_000, by: 4321) {
            input[2 * frame] = 50
            input[2 * frame + 1] = -40
        }
        input += (0..<20_000).flatMap { frame in [frame % 100 < 50 ? Float(3) : -3, 0.1] }
        let output = Self.limit(input, block: block, limiter: limiter)
        let peak = output.map(abs).max() ?? 0
        #expect(peak <= limiter.ceiling, "peak \(peak), ceiling \(limiter.ceiling)")
        #expect(limiter.largestReductionDecibels > 30)
    }

    /// A peak that falls a little every frame, for longer than the look-ahead: every need is larger
    /// than the one before, none makes another useless, and the running minimum holds a whole
    /// window of them (its ring overflowed by one before: memory after it was written).
    @Test func aPeakFallingEveryFrameFillsTheWindowWithoutOverflowing() {
        let limiter = PeakLimiter(sampleRate: Self.rate)
        let input = (0..<2000).flatMap { frame -> [Float] in
            let value = Float(8 - Double(frame) * 0.0035)
            return [value, -value]
        }
        let output = Self.limit(input, block: 4096, limiter: limiter)
        #expect(output.map(abs).max()! <= limiter.ceiling)
        #expect(limiter.largestReductionDecibels > 18)
    }

    /// Blocks shorter and longer than the delay line (220 frames), which the fast path moves
    /// frame by frame and in bulk.
    @Test(arguments: [1, 64, 219, 220, 221, 333, 4096])
    func aSignalUnderTheCeilingComesOutBitForBitLaterByTheLatency(block: Int) {
        let limiter = PeakLimiter(sampleRate: Self.rate)
        let input = Self.noise(frames: 30_000, amplitude: 0.89, seed: 2)
        let output = Self.limit(input, block: block, limiter: limiter)
        let latency = limiter.latencyFrames
        #expect(latency == 220)
        #expect(output.prefix(2 * latency).allSatisfy { $0 == 0 })
        #expect(Array(output.dropFirst(2 * latency)) == Array(input.dropLast(2 * latency)), "not bit for bit")
        #expect(limiter.largestReductionDecibels == 0)
    }

    /// A sine at +6 dBFS starting out of silence: the gain starts falling before the sine arrives
    /// (the look-ahead), so its first peak is already under the ceiling, and it never falls faster
    /// than over the look-ahead, nor comes back up with a step.
    @Test func attackIsAheadOfThePeakAndTheGainMovesSmoothly() {
        let limiter = PeakLimiter(sampleRate: Self.rate)
        let silence = [Float](repeating: 0, count: 2 * 10_000)
        let sine = (0..<20_000).flatMap { frame -> [Float] in
            let value = Float(2 * sin(2 * Double.pi * 220 * Double(frame) / Self.rate))
            return [value, value]
        }
        let input = silence + sine + silence
        let output = Self.limit(input, limiter: limiter)
        let latency = limiter.latencyFrames
        // The gain applied to each frame that carries signal: output over the input it delays.
        var gains: [Float] = []
        for frame in 10_000..<30_000 {
            let original = input[2 * frame]
            if abs(original) > 0.05 { gains.append(output[2 * (frame + latency)] / original) }
        }
        // The sine's first quarter period is 50 frames: the look-ahead (220) saw its first peak coming.
        #expect(gains[0] < 0.9, "the gain had started falling before the sine: \(gains[0])")
        let firstPeak = (10_000..<10_100).max { abs(input[2 * $0]) < abs(input[2 * $1]) }!
        #expect(abs(output[2 * (firstPeak + latency)]) <= limiter.ceiling, "the first peak is already turned down")
        #expect(output.map(abs).max()! <= limiter.ceiling)
        // After the sine, the release: the gain rises back to 1 without a step.
        let tail = (30_000..<31_000).map { output[2 * ($0 + latency)] }
        #expect(tail.allSatisfy { $0 == 0 })
        let release = PeakLimiter(sampleRate: Self.rate)
        let loudThenQuiet = sine.prefix(2 * 5000) + sine.prefix(2 * 20_000).map { $0 / 8 }
        let released = Self.limit(Array(loudThenQuiet), limiter: release)
        var previous: Float = 0
        var largestStep: Float = 0
        for frame in 5000..<25_000 - release.latencyFrames {
            let original = loudThenQuiet[2 * frame]
            guard abs(original) > 0.1 else { continue }
            let gain = released[2 * (frame + release.latencyFrames)] / original
            if previous > 0 { largestStep = max(largestStep, abs(gain - previous)) }
            previous = gain
        }
        #expect(largestStep < 0.01, "the gain jumps by \(largestStep) between frames")
        // Exponential, 120 ms: after 0.45 s, 98 % of the way back from 0.446.
        #expect(previous > 0.98, "the gain came back: \(previous)")
    }

    @Test func resetDropsWhatWasInTheDelayLine() {
        let limiter = PeakLimiter(sampleRate: Self.rate)
        _ = Self.limit(Self.noise(frames: 1000, amplitude: 5, seed: 3), limiter: limiter)
        limiter.reset()
        #expect(limiter.largestReductionDecibels == 0)
        let output = Self.limit([Float](repeating: 0, count: 2 * 1000), limiter: limiter)
        #expect(output.allSatisfy { $0 == 0 })
    }
}
