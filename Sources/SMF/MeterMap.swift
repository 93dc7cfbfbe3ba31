/// Converts between ticks on a song's time line and bars and beats, from its time signature events.
///
/// Until the first time signature the meter is 4/4. A time signature that comes in the middle of
/// a bar starts a new bar there, as notation programs read it. A beat is the signature's
/// denominator (a quarter in 3/4, an eighth in 6/8). Files timed in SMPTE frames have no bars.
public struct MeterMap: Hashable, Sendable {
    /// A stretch of the time line with one meter, starting at the first beat of a bar.
    struct Segment: Hashable, Sendable {
        var tick: UInt64
        /// The bar that starts at `tick`, counted from 0.
        var bar: UInt64
        var beatsPerBar: UInt64
        var ticksPerBeat: UInt64
        var ticksPerBar: UInt64 { beatsPerBar * ticksPerBeat }
    }

    let segments: [Segment]

    /// A place in bars and beats, both counted from 1 as musicians count; `tick` is the ticks past
    /// the beat.
    public struct Place: Hashable, Sendable, CustomStringConvertible {
        public var bar: UInt64
        public var beat: UInt64
        public var tick: UInt64

        public init(bar: UInt64, beat: UInt64, tick: UInt64 = 0) {
            self.bar = bar
            self.beat = beat
            self.tick = tick
        }

        public var description: String { "\(bar):\(beat)" }
    }

    /// `nil` for a file timed in SMPTE frames.
    public init?(song: Song) {
        guard case .musical(let ticksPerQuarterNote) = song.file.timebase else { return nil }
        let quarter = UInt64(max(ticksPerQuarterNote, 1))
        var changes: [(tick: UInt64, numerator: UInt64, denominatorPower: UInt8)] = []
        for (index, track) in song.file.tracks.enumerated() {
            guard track.payloads.contains(where: { $0.metaType == 0x58 }) else { continue }
            let start = song.timeline.trackStartTicks[index]
            for event in track.events where event.status == 0xFF && track.metaType(of: event) == 0x58 {
                let bytes = track.payload(of: event)
                // A numerator of 0, or a denominator finer than a 64th note, is no meter: ignored.
                guard bytes.count >= 2, bytes[bytes.startIndex] > 0, bytes[bytes.startIndex + 1] <= 6 else { continue }
                changes.append((start + UInt64(event.tick), UInt64(bytes[bytes.startIndex]), bytes[bytes.startIndex + 1]))
            }
        }
        changes.sort { $0.tick < $1.tick }
        var segments = [Segment(tick: 0, bar: 0, beatsPerBar: 4, ticksPerBeat: quarter)]
        for change in changes {
            let last = segments[segments.count - 1]
            // A beat shorter than a tick (a 64th note at 12 ticks per quarter) is one tick.
            let segment = Segment(
                tick: change.tick, bar: last.bar + (change.tick - last.tick).divideRoundingUp(by: last.ticksPerBar),
                beatsPerBar: change.numerator, ticksPerBeat: max(1, (quarter * 4) >> change.denominatorPower))
            if change.tick == last.tick {
                segments[segments.count - 1] = Segment(
                    tick: last.tick, bar: last.bar, beatsPerBar: segment.beatsPerBar, ticksPerBeat: segment.ticksPerBeat)
            } else {
                segments.append(segment)
            }
        }
        self.segments = segments
    }

    /// The bar and beat that hold `tick`.
    public func place(atTick tick: UInt64) -> Place {
        let segment = segments.last { $0.tick <= tick } ?? segments[0]
        let into = tick - segment.tick
        let bar = segment.bar + into / segment.ticksPerBar
        let inBar = into % segment.ticksPerBar
        return Place(bar: bar + 1, beat: inBar / segment.ticksPerBeat + 1, tick: inBar % segment.ticksPerBeat)
    }

    /// The tick where a bar's beat starts; `nil` for a bar before the first or a beat the bar has
    /// not (beat 5 of a 4/4 bar).
    public func tick(at place: Place) -> UInt64? {
        guard place.bar >= 1, place.beat >= 1 else { return nil }
        let bar = place.bar - 1
        let segment = segments.last { $0.bar <= bar } ?? segments[0]
        guard place.beat <= segment.beatsPerBar else { return nil }
        let (barTicks, overflow) = (bar - segment.bar).multipliedReportingOverflow(by: segment.ticksPerBar)
        guard !overflow, barTicks < UInt64.max / 2 else { return nil }
        return segment.tick + barTicks + (place.beat - 1) * segment.ticksPerBeat + place.tick
    }
}

extension UInt64 {
    fileprivate func divideRoundingUp(by divisor: UInt64) -> UInt64 {
        self / divisor + (self % divisor == 0 ? 0 : 1)
    }
}
