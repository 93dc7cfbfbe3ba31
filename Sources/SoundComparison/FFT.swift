#if canImport(Glibc)
    import Glibc
#endif

/// A radix-2 fast Fourier transform of real frames of one size: the power in each frequency bin.
public struct FFT: Sendable {
    public let size: Int
    private let cosines: [Float]
    private let sines: [Float]
    private let window: [Float]
    private let reversed: [Int]

    /// `size` a power of two.
    public init(size: Int) {
        precondition(size > 1 && size & (size - 1) == 0, "an FFT size is a power of two")
        self.size = size
        cosines = (0..<size / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<size / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        // A Hann window: the frame's edges do not smear energy across the spectrum.
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in
            var result = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
            return result
        }
    }

    /// The power of bins 0…size/2 of `frame` (`size` samples), windowed.
    public func power(of frame: ArraySlice<Float>) -> [Float] {
        var real = [Float](repeating: 0, count: size)
        var imaginary = [Float](repeating: 0, count: size)
        for (offset, sample) in frame.enumerated() where offset < size {
            real[reversed[offset]] = sample * window[offset]
        }
        var length = 2
        while length <= size {
            let half = length / 2
            let step = size / length
            for start in stride(from: 0, to: size, by: length) {
                for pair in 0..<half {
                    let (c, s) = (cosines[pair * step], sines[pair * step])
                    let a = start + pair
                    let b = a + half
                    let tr = real[b] * c - imaginary[b] * s
                    let ti = real[b] * s + imaginary[b] * c
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
            }
            length *= 2
        }
        return (0...size / 2).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
    }
}
