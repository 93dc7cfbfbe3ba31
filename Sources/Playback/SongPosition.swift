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

extension SongPosition {
    /// Where this place is in `song`, whose bars `meter` counts; nil for a bar and beat the song
    /// does not have (a beat past its bar's, a song timed in SMPTE frames).
    public func seconds(in song: Song, meter: MeterMap?) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .bar(let place):
            guard let tick = meter?.tick(at: place) else { return nil }
            return song.tempoMap.seconds(atTick: tick)
        }
    }
}
