import Foundation

/// The power spectrum of a stretch of rendered audio (mono, Hann-windowed, one FFT): where a note's
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
        var real = (0..<size).map { index -> Double in
            let frame = first + index
            guard 2 * frame + 1 < audio.count else { return 0 }
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(size))
            return window * Double(audio[2 * frame] + audio[2 * frame + 1]) / 2
        }
        var imaginary = [Double](repeating: 0, count: size)
        Self.transform(&real, &imaginary)
        self.sampleRate = sampleRate
        bins = (0...size / 2).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
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

    /// An in-place radix-2 FFT.
    private static func transform(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var swapped = 0
        for index in 1..<count {
            var bit = count >> 1
            while swapped & bit != 0 {
                swapped ^= bit
                bit >>= 1
            }
            swapped |= bit
            if index < swapped {
                real.swapAt(index, swapped)
                imaginary.swapAt(index, swapped)
            }
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: count, by: length) {
                for offset in 0..<length / 2 {
                    let (c, s) = (cos(angle * Double(offset)), sin(angle * Double(offset)))
                    let even = start + offset
                    let odd = even + length / 2
                    let oddReal = real[odd] * c - imaginary[odd] * s
                    let oddImaginary = real[odd] * s + imaginary[odd] * c
                    real[odd] = real[even] - oddReal
                    imaginary[odd] = imaginary[even] - oddImaginary
                    real[even] += oddReal
                    imaginary[even] += oddImaginary
                }
            }
            length <<= 1
        }
    }
}
