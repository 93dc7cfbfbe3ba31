/// The sample rates a format takes: any within a range, or only a few.
public enum SupportedSampleRates: Hashable, Sendable {
    /// Any rate within the range.
    case range(ClosedRange<Int>)
    /// Only these rates (MP3's and Opus's); `otherwise` is the one a render uses when the rate it
    /// was set up with (the configuration's) is not among them.
    case only([Int], otherwise: Int)

    public func contains(_ rate: Int) -> Bool {
        switch self {
        case .range(let range): range.contains(rate)
        case .only(let rates, _): rates.contains(rate)
        }
    }

    /// `rate` when the format takes it, else the rate it takes in its place: for a render whose
    /// rate nobody asked for on the command line (the configuration's, or the default 44.1 kHz).
    public func rate(inPlaceOf rate: Int) -> Int {
        switch self {
        case .range: rate
        case .only(let rates, let otherwise): rates.contains(rate) ? rate : otherwise
        }
    }
}

extension SupportedSampleRates: CustomStringConvertible {
    /// As messages name them: "1–200000 Hz", "8000, 12000, 16000, 24000 or 48000 Hz".
    public var description: String {
        switch self {
        case .range(let range):
            "\(range.lowerBound)–\(range.upperBound) Hz"
        case .only(let rates, _):
            rates.dropLast().map(String.init).joined(separator: ", ") + (rates.count > 1 ? " or " : "") + "\(rates.last ?? 0) Hz"
        }
    }
}
