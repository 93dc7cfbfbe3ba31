#if canImport(Glibc)
    import Glibc
#endif

/// The peaks between samples: each interval between two frames looked at at seven points (8×
/// oversampling), by a 24-tap windowed-sinc interpolator per point. For the limiter that keeps
/// normalized renders at or below −1 dBTP (``PeakLimiter``'s true-peak mode); measuring is
/// libebur128's. Twice ITU-R BS.1770-4's 4×, for a closer look between samples.
///
/// A reference type, as it owns its history: the last `taps` input frames, a ring. ``add(left:right:)``
/// allocates nothing and takes no lock.
public final class TruePeakInterpolator {
    /// Taps per point: the interval between frames `n − 12` and `n − 11` is known once frame `n`
    /// is in. With 12, songs held at −1.00 dBTP by the limiter read −0.91 by a 16× resampling: a
    /// short filter's response falls before the top of the audio band, where cymbals peak.
    static let taps = 24
    /// How many frames the interval known lags behind the newest frame: the frame it starts at is
    /// `delay` frames old.
    public static let delay = taps / 2
    private static let oversampling = 8
    private static let points = oversampling - 1
    private static let ringSize = 32

    /// For each point p/8 (p = 1 … 7) into the interval, the weights of the `taps` frames around it.
    private let weights: UnsafeMutablePointer<Float>
    /// The most any point can exceed the largest sample near it by: its weights' magnitudes summed.
    public let overshootBound: Float
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private var newest = 0

    public init() {
        weights = .allocate(capacity: Self.points * Self.taps)
        left = .allocate(capacity: Self.ringSize)
        right = .allocate(capacity: Self.ringSize)
        var bound: Float = 0
        for point in 1...Self.points {
            // A Kaiser window (β = 5) over ±`delay` frames: the sinc's ripple cut short without much ringing.
            var row = [Double]()
            for tap in 0..<Self.taps {
                let offset = Double(Self.delay - 1 - tap) + Double(point) / Double(Self.oversampling)
                let sinc = offset == 0 ? 1 : sin(Double.pi * offset) / (Double.pi * offset)
                let ratio = offset / Double(Self.delay)
                row.append(sinc * Self.besselI0(5 * (1 - ratio * ratio).squareRoot()) / Self.besselI0(5))
            }
            let sum = row.reduce(0, +)
            for tap in 0..<Self.taps { weights[(point - 1) * Self.taps + tap] = Float(row[tap] / sum) }
            bound = max(bound, Float(row.reduce(0) { $0 + abs($1) } / abs(sum)))
        }
        overshootBound = bound
        reset()
    }

    deinit {
        weights.deallocate()
        left.deallocate()
        right.deallocate()
    }

    /// Forgets the frames seen: silence before the next.
    public func reset() {
        left.update(repeating: 0, count: Self.ringSize)
        right.update(repeating: 0, count: Self.ringSize)
        newest = 0
    }

    /// Takes the next frame, and returns the largest magnitude at the seven points between the
    /// frames `delay` and `delay − 1` frames old, in either channel.
    public func add(left newLeft: Float, right newRight: Float) -> Float {
        newest = (newest + 1) & (Self.ringSize - 1)
        left[newest] = newLeft
        right[newest] = newRight
        // The oldest of the frames the points need.
        let first = newest - (Self.taps - 1)
        var peak: Float = 0
        for point in 0..<Self.points {
            var sumLeft: Float = 0
            var sumRight: Float = 0
            for tap in 0..<Self.taps {
                let slot = (first + tap) & (Self.ringSize - 1)
                let weight = weights[point * Self.taps + tap]
                sumLeft += weight * left[slot]
                sumRight += weight * right[slot]
            }
            peak = max(peak, abs(sumLeft), abs(sumRight))
        }
        return peak
    }

    /// Takes frames without looking between them (the limiter's quiet path), so that the points
    /// after them have the history they need.
    public func skip(_ samples: UnsafePointer<Float>, frames: Int) {
        for index in max(0, frames - Self.taps)..<frames {
            newest = (newest + 1) & (Self.ringSize - 1)
            left[newest] = samples[2 * index]
            right[newest] = samples[2 * index + 1]
        }
    }

    /// The largest magnitude among the last frames taken (at least `taps`).
    public var historyPeak: Float {
        var peak: Float = 0
        for slot in 0..<Self.ringSize { peak = max(peak, abs(left[slot]), abs(right[slot])) }
        return peak
    }

    /// The modified Bessel function of the first kind, order 0, by its series.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        for k in 1..<30 {
            term *= (x / (2 * Double(k))) * (x / (2 * Double(k)))
            sum += term
        }
        return sum
    }
}
