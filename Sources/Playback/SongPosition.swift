import SMF

/// A place in a song: a time, or a bar and beat of its time signatures.
public enum SongPosition: Hashable, Sendable {
    case seconds(Double)
    case bar(MeterMap.Place)

    /// From the text of `--seek`: seconds ("75", "75.5") or bar and beat ("12:3", both from 1).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else { return nil }
            self = .seconds(seconds)
        case 2:
            guard let bar = UInt64(parts[0]), let beat = UInt64(parts[1]), bar >= 1, beat >= 1, bar < 1_000_000, beat < 1000 else { return nil }
            self = .bar(MeterMap.Place(bar: bar, beat: beat))
        default:
            return nil
        }
    }
}
