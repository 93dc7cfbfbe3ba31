import Foundation

/// How much one rendering sounds like another, in the ways a listener hears a rendering go wrong:
/// the wrong instrument, drums played as notes, notes in the wrong octave (``spectralSimilarity``),
/// the wrong level (``levelDifference``), a part missing (``largestBandDeficit``), clipping
/// (``candidatePeak``).
///
/// Both renderings are mixed to mono and cut into frames of about 46 ms (2048 samples at 44.1 kHz,
/// every 23 ms); each frame's spectrum is summed into sixth-octave bands from 40 Hz to 16 kHz, in
/// dB. The similarity is the correlation of the two band-by-frame maps, over the frames where
/// either sounds: it follows pitch, timbre and rhythm, and not the overall level, which is
/// compared by itself. A part that is missing leaves the bands it played in short of energy all
/// song long: the deficit is the largest shortfall of one band's level over the whole song,
/// among the bands that carry sound in the reference.
public struct SoundComparison: Sendable {
    /// 1 for the same music sounding the same; lower as pitch, timbre or rhythm differ.
    public let spectralSimilarity: Double
    /// The candidate's RMS level less the reference's, in dB.
    public let levelDifference: Double
    /// How far the band most short of energy in the candidate is below the reference's, in dB, the
    /// levels first matched (a quieter rendering is the level's fault, not a missing part); 0 when
    /// no band is short.
    public let largestBandDeficit: Double
    /// The centre frequency of that band, in Hz.
    public let deficitFrequency: Double
    /// The candidate's largest sample, in full scale (1 is 0 dBFS).
    public let candidatePeak: Float

    /// What counts as sounding alike.
    public struct Tolerance: Sendable {
        public var minimumSimilarity: Double
        public var maximumLevelDifference: Double
        public var maximumBandDeficit: Double

        public init(minimumSimilarity: Double, maximumLevelDifference: Double, maximumBandDeficit: Double) {
            self.minimumSimilarity = minimumSimilarity
            self.maximumLevelDifference = maximumLevelDifference
            self.maximumBandDeficit = maximumBandDeficit
        }

        /// Calibrated on real renderings (see SoundComparisonTests): the same music rendered again
        /// scores above 0.99 with no level difference and no deficit; drums as piano, another
        /// instrument or another octave score below 0.85; a missing bass or drum part leaves a band
        /// 15 dB or more short.
        public static let standard = Tolerance(minimumSimilarity: 0.9, maximumLevelDifference: 1, maximumBandDeficit: 9)
    }

    static let frameSize = 2048
    static let hop = 1024
    static let bandsPerOctave = 6.0
    static let lowestFrequency = 40.0
    static let highestFrequency = 16_000.0
    /// Frames quieter than this below the loudest frame of either rendering are not compared.
    static let activityRange = 50.0

    /// Both interleaved stereo at `sampleRate`; they may differ in length (the shorter is taken as
    /// silent after its end).
    public init(candidate: [Float], reference: [Float], sampleRate: Double) {
        let candidateMono = Self.mono(candidate)
        let referenceMono = Self.mono(reference)
        candidatePeak = candidate.reduce(0) { max($0, abs($1)) }
        let candidateRMS = Self.rms(candidateMono)
        let referenceRMS = Self.rms(referenceMono)
        levelDifference = 20 * log10(max(candidateRMS, 1e-12) / max(referenceRMS, 1e-12))

        let length = max(candidateMono.count, referenceMono.count)
        let bands = Self.bandEdges(sampleRate: sampleRate)
        let fft = FFT(size: Self.frameSize)
        var candidateMap: [[Double]] = []
        var referenceMap: [[Double]] = []
        for start in stride(from: 0, to: max(length - Self.frameSize / 2, 1), by: Self.hop) {
            candidateMap.append(Self.bandPowers(candidateMono, start: start, fft: fft, bands: bands))
            referenceMap.append(Self.bandPowers(referenceMono, start: start, fft: fft, bands: bands))
        }
        // Compared in dB, against a floor 80 dB under the loudest band of either: silence is a level too.
        let loudest = max(candidateMap.joined().max() ?? 0, referenceMap.joined().max() ?? 0, 1e-30)
        let floor = loudest * 1e-8
        func decibels(_ power: Double) -> Double { 10 * log10(power + floor) }
        let frameLevels = zip(candidateMap, referenceMap).map { max($0.reduce(0, +), $1.reduce(0, +)) }
        let loudestFrame = frameLevels.max() ?? 0
        let active = frameLevels.indices.filter { frameLevels[$0] > loudestFrame * pow(10, -Self.activityRange / 10) }
        var candidateValues: [Double] = []
        var referenceValues: [Double] = []
        for frame in active {
            candidateValues += candidateMap[frame].map(decibels)
            referenceValues += referenceMap[frame].map(decibels)
        }
        spectralSimilarity = Self.correlation(candidateValues, referenceValues)

        // Each band's level over the whole song, the candidate's matched to the reference's overall level.
        let bandCount = bands.count - 1
        let gain = pow(10, -levelDifference / 10)
        var deficit = 0.0
        var deficitBand = 0
        let referenceBands = (0..<bandCount).map { band in referenceMap.reduce(0) { $0 + $1[band] } }
        let candidateBands = (0..<bandCount).map { band in candidateMap.reduce(0) { $0 + $1[band] } * gain }
        let strongest = referenceBands.max() ?? 0
        for band in 0..<bandCount where referenceBands[band] > strongest * 1e-3 {
            let shortfall = 10 * log10(referenceBands[band] / max(candidateBands[band], strongest * 1e-9))
            if shortfall > deficit {
                deficit = shortfall
                deficitBand = band
            }
        }
        largestBandDeficit = deficit
        deficitFrequency = Self.lowestFrequency * pow(2, (Double(deficitBand) + 0.5) / Self.bandsPerOctave)
    }

    /// Why the candidate does not sound like the reference, one reason a line; empty when it does.
    public func mismatches(_ tolerance: Tolerance = .standard) -> [String] {
        var reasons: [String] = []
        if spectralSimilarity < tolerance.minimumSimilarity {
            reasons.append(
                String(
                    format: "spectral similarity %.3f, below %.3f: other instruments, pitches or rhythm",
                    spectralSimilarity, tolerance.minimumSimilarity))
        }
        if abs(levelDifference) > tolerance.maximumLevelDifference {
            reasons.append(
                String(format: "level %+.2f dB from the reference's, more than ±%.2f dB", levelDifference, tolerance.maximumLevelDifference))
        }
        if largestBandDeficit > tolerance.maximumBandDeficit {
            reasons.append(
                String(
                    format: "the band around %.0f Hz is %.1f dB short of the reference's: a part is missing",
                    deficitFrequency, largestBandDeficit))
        }
        if candidatePeak >= 1 {
            reasons.append(String(format: "clips: its peak is %+.2f dBFS", 20 * log10(Double(candidatePeak))))
        }
        return reasons
    }

    private static func mono(_ stereo: [Float]) -> [Float] {
        (0..<stereo.count / 2).map { (stereo[2 * $0] + stereo[2 * $0 + 1]) / 2 }
    }

    private static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Bin indices where each band starts, and where the last ends.
    private static func bandEdges(sampleRate: Double) -> [Int] {
        let binWidth = sampleRate / Double(frameSize)
        var edges: [Int] = []
        var frequency = lowestFrequency
        while frequency <= min(highestFrequency, sampleRate / 2) {
            edges.append(Int((frequency / binWidth).rounded()))
            frequency *= pow(2, 1 / bandsPerOctave)
        }
        // Bands at the bottom narrower than a bin are merged into their neighbours.
        var distinct: [Int] = []
        for edge in edges where distinct.last.map({ edge > $0 }) ?? true { distinct.append(edge) }
        return distinct
    }

    private static func bandPowers(_ samples: [Float], start: Int, fft: FFT, bands: [Int]) -> [Double] {
        let end = min(start + frameSize, samples.count)
        let frame = start < end ? samples[start..<end] : []
        let power = fft.power(of: frame)
        return (0..<bands.count - 1).map { band in
            (bands[band]..<bands[band + 1]).reduce(0.0) { $0 + Double(power[min($1, power.count - 1)]) }
        }
    }

    private static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count == b.count, a.count > 1 else { return 0 }
        let meanA = a.reduce(0, +) / Double(a.count)
        let meanB = b.reduce(0, +) / Double(b.count)
        var covariance = 0.0
        var varianceA = 0.0
        var varianceB = 0.0
        for index in a.indices {
            let x = a[index] - meanA
            let y = b[index] - meanB
            covariance += x * y
            varianceA += x * x
            varianceB += y * y
        }
        guard varianceA > 0, varianceB > 0 else { return varianceA == varianceB ? 1 : 0 }
        return covariance / (varianceA * varianceB).squareRoot()
    }
}
