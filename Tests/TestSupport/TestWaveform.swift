import Foundation

/// A sound no General MIDI SoundFont makes, for sound banks the tests write (``TestSoundBank``):
/// each is told from the others, and from any recorded instrument, by where its energy lies.
public enum TestWaveform: String, Sendable, CaseIterable {
    /// A pure tone: all of its energy in the fundamental.
    case sine
    /// Odd harmonics only, the nth at 1/n of the fundamental's amplitude.
    case square
    /// Every harmonic, the nth at 1/n.
    case sawtooth
    /// White noise, fading over a quarter of a second: a drum hit with no pitch.
    case noise

    /// The samples' rate.
    public static let sampleRate = 44_100
    /// The pitched waves sound A4 (440 Hz) at their root key.
    public static let rootFrequency = 440.0
    public static let pitchedRootKey: UInt8 = 69

    /// One recorded sample of the wave, as a SoundFont or DLS file stores it.
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var frames: [Int16]
        /// The frames played over and over while the key is held; nil for a one-shot sound.
        public var loop: Range<Int>?
        /// The key at which it sounds as recorded.
        public var rootKey: UInt8
    }

    /// 0.2 s of the wave; a pitched one loops its second 0.1 s, which holds exactly 44 cycles of
    /// 440 Hz (4,410 frames), so that the loop joins without a click.
    public var sample: Sample {
        switch self {
        case .noise:
            return Sample(name: "noise", frames: Self.noiseBurst(), loop: nil, rootKey: 60)
        case .sine, .square, .sawtooth:
            let period = Self.sampleRate / 10
            return Sample(name: rawValue, frames: pitchedFrames(count: 2 * period), loop: period..<2 * period, rootKey: Self.pitchedRootKey)
        }
    }

    /// Band-limited: summed from harmonics below 20 kHz, so that nothing folds back below the
    /// fundamental at the root key. Peaks at half of full scale.
    private func pitchedFrames(count: Int) -> [Int16] {
        let step = 2 * Double.pi * Self.rootFrequency / Double(Self.sampleRate)
        let harmonics = Array(1...Int(20_000 / Self.rootFrequency)).compactMap { number -> (Double, Double)? in
            switch self {
            case .sine: return number == 1 ? (1, 1) : nil
            case .square: return number % 2 == 1 ? (Double(number), 1 / Double(number)) : nil
            case .sawtooth: return (Double(number), (number % 2 == 1 ? 1 : -1) / Double(number))
            case .noise: return nil
            }
        }
        let wave = (0..<count).map { frame in harmonics.reduce(0.0) { $0 + $1.1 * sin($1.0 * step * Double(frame)) } }
        let peak = wave.map(abs).max() ?? 1
        return wave.map { Int16(($0 / peak * 16_384).rounded()) }
    }

    /// A quarter of a second of white noise (the same every time: a fixed linear congruential
    /// sequence), fading by 1/e every 60 ms, at half of full scale.
    private static func noiseBurst() -> [Int16] {
        var state: UInt32 = 12_345
        return (0..<sampleRate / 4).map { frame in
            state = state &* 1_664_525 &+ 1_013_904_223
            let white = Double(Int32(bitPattern: state)) / Double(Int32.max)
            return Int16((white * exp(-Double(frame) / (0.06 * Double(sampleRate))) * 16_384).rounded())
        }
    }
}
