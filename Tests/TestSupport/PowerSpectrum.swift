import Foundation
import SoundComparison

/// The power spectrum of a stretch of rendered audio (mono, Hann-windowed, one FFT: SoundComparison's): where a note's
/// energy lies, for telling a sine from a square, a tone from noise, one instrument from another.
public struct PowerSpectrum: Sendable {
    public let sampleRate: Double
    /// Power in each bin, from 0 Hz to half the sample rate.
    public let bins: [Double]

    /// The `size` frames (a power of two) from `start` seconds of interleaved stereo `audio`,
    /// mixed to mono; past the end is silence.
    public init(stereo audio: [Float], sampleRate: Double = 44_100, start: Double, size: Int = 16_384) {
        precondition(size > 1 && size & (size - 1) == 0, "the size is a power of two")
        let first = Int(start * sampleRate)
        let mono = (0..<size).map { index -> Float in
            let frame = first + index
            guard 2 * frame + 1 < audio.count else { return 0 }
            return (audio[2 * frame] + audio[2 * frame + 1]) / 2
        }
        self.sampleRate = sampleRate
        bins = FFT(size: size).power(of: mono[...]).map(Double.init)
    }

    public var binWidth: Double { sampleRate / Double(2 * (bins.count - 1)) }

    public var total: Double { bins.reduce(0, +) }

    /// The power between two frequencies, in Hz.
    public func power(in band: ClosedRange<Double>) -> Double {
        let low = max(0, Int((band.lowerBound / binWidth).rounded(.up)))
        let high = min(bins.count - 1, Int((band.upperBound / binWidth).rounded(.down)))
        return low <= high ? bins[low...high].reduce(0, +) : 0
    }

    /// That power's share of the whole.
    public func share(in band: ClosedRange<Double>) -> Double {
        power(in: band) / max(total, .leastNonzeroMagnitude)
    }

    /// The share of the whole in each of the first `count` harmonics of `fundamental`: the power
    /// within 2 % (at least three bins, for the window's spread) of each multiple.
    public func harmonicShares(fundamental: Double, count: Int = 10) -> [Double] {
        (1...count).map { number in
            let centre = Double(number) * fundamental
            let halfWidth = max(0.02 * centre, 3 * binWidth)
            return share(in: centre - halfWidth...centre + halfWidth)
        }
    }

    /// The frequency of the strongest bin.
    public var peakFrequency: Double {
        Double(bins.indices.max { bins[$0] < bins[$1] } ?? 0) * binWidth
    }

    /// Spectral flatness over a band: the geometric mean of the bins' power over their arithmetic
    /// mean. White noise scores about 0.56 (a periodogram's bins vary), a tone near 0.
    public func flatness(in band: ClosedRange<Double>) -> Double {
        let low = Int((band.lowerBound / binWidth).rounded(.up))
        let high = min(bins.count - 1, Int((band.upperBound / binWidth).rounded(.down)))
        let values = bins[low...high].map { max($0, 1e-30) }
        let logMean = values.reduce(0) { $0 + log($1) } / Double(values.count)
        return exp(logMean) / (values.reduce(0, +) / Double(values.count))
    }
}
