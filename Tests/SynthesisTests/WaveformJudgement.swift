import Foundation
import TestSupport

/// Whether a rendered note sounds like a ``TestWaveform``, read from its spectrum as a listener
/// tells a flute from a clarinet from a snare: which harmonics sound, how loud against the
/// fundamental, and whether anything sounds between them. Returns the reasons it does not, one a
/// line; empty when it does.
///
/// The tolerances leave room for FluidSynth's interpolation and filter and the Vorbis codec, and
/// none for a recorded instrument: FluidR3_GM's piano at A4 has 97 % of its energy in the
/// fundamental too, but its second harmonic only 25 dB below it, where a sine has none.
enum WaveformJudgement {
    /// Each harmonic's level against the fundamental's, in dB (index 0 is the fundamental, 0 dB).
    static func harmonicLevels(_ spectrum: PowerSpectrum, fundamental: Double, count: Int = 10) -> [Double] {
        let shares = spectrum.harmonicShares(fundamental: fundamental, count: count)
        return shares.map { 10 * log10(max($0, 1e-30) / max(shares[0], 1e-30)) }
    }

    static func mismatches(_ spectrum: PowerSpectrum, as waveform: TestWaveform, fundamental: Double) -> [String] {
        if waveform == .noise { return noiseMismatches(spectrum) }
        let levels = harmonicLevels(spectrum, fundamental: fundamental)
        let harmonic = spectrum.harmonicShares(fundamental: fundamental, count: 10).reduce(0, +)
        func decibels(_ value: Double) -> String { String(format: "%.1f dB", value) }
        var reasons: [String] = []
        if harmonic < 0.95 { reasons.append("the harmonics of \(fundamental) Hz carry \(Int(harmonic * 100)) % of the energy: other sound is heard") }
        /// The harmonics that must be missing, and those that must sound at 1/n (in amplitude: -20 log10 n dB).
        let (absent, present): ([Int], [Int]) =
            switch waveform {
            case .sine: (Array(2...10), [])
            case .square: ([2, 4, 6], [3, 5])
            case .sawtooth: ([], [2, 3, 4])
            case .noise: ([], [])
            }
        // Vorbis, interpolation and FluidSynth's filter leave the missing ones 45 dB down or more.
        for number in absent where levels[number - 1] > -35 {
            reasons.append("harmonic \(number) at \(decibels(levels[number - 1])), where a \(waveform) has none")
        }
        for number in present {
            let expected = -20 * log10(Double(number))
            if abs(levels[number - 1] - expected) > 3 {
                reasons.append("harmonic \(number) at \(decibels(levels[number - 1])), where a \(waveform) has it at \(decibels(expected))")
            }
        }
        return reasons
    }

    /// White noise: flat, most of its energy high up, next to none at any pitch.
    private static func noiseMismatches(_ spectrum: PowerSpectrum) -> [String] {
        var reasons: [String] = []
        let flatness = spectrum.flatness(in: 1_000...15_000)
        if flatness < 0.3 { reasons.append("flatness \(flatness) from 1 to 15 kHz: not noise") }
        let high = spectrum.share(in: 2_000...20_000)
        if high < 0.75 { reasons.append("\(Int(high * 100)) % of the energy above 2 kHz: noise has most of it there") }
        return reasons
    }
}
