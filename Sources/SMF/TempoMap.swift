/// Converts between ticks on a song's time line and seconds.
///
/// Built from every tempo event of every track (format 1 files may keep them
/// anywhere), or from the frame rate for an SMPTE division, where tempo events
/// do not apply. Until the first tempo event the tempo is 120 beats per minute.
public struct TempoMap: Hashable, Sendable {
    /// A stretch of the time line with one tempo.
    public struct Segment: Hashable, Sendable {
        /// Where the segment starts.
        public var tick: UInt64
        /// The time at `tick`.
        public var seconds: Double
        /// The tempo in force; `nil` for an SMPTE division.
        public var microsecondsPerQuarterNote: UInt32?
        var secondsPerTick: Double
    }

    /// The segments in time order; the first starts at tick 0.
    public let segments: [Segment]

    public static let defaultMicrosecondsPerQuarterNote: UInt32 = 500_000

    public init(file: MIDIFile, timeline: Timeline) {
        switch file.timebase {
        case .musical: self.init(timebase: file.timebase, tempoChanges: Self.tempoChanges(in: file, timeline: timeline))
        // An SMPTE division ignores tempo events: no need to look for them.
        case .smpte: self.init(timebase: file.timebase, tempoChanges: [])
        }
    }

    /// A tempo map from tempo events gathered some other way (as ``SMFEventStream``
    /// visits them). `tempoChanges` are time line ticks with their tempos, in track
    /// order and, within a track, in file order; at equal ticks the last one wins.
    public init(timebase: Timebase, tempoChanges: [(tick: UInt64, microsecondsPerQuarterNote: UInt32)]) {
        switch timebase {
        case .smpte(let rate, let ticksPerFrame):
            segments = [
                Segment(
                    tick: 0, seconds: 0, microsecondsPerQuarterNote: nil,
                    secondsPerTick: 1 / (rate.framesPerSecond * Double(ticksPerFrame)))
            ]
        case .musical(let ticksPerQuarterNote):
            // Stable: equal ticks keep track order.
            let changes = tempoChanges.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
            let perTick = 1 / (1_000_000 * Double(ticksPerQuarterNote))
            var segments = [
                Segment(
                    tick: 0, seconds: 0, microsecondsPerQuarterNote: Self.defaultMicrosecondsPerQuarterNote,
                    secondsPerTick: Double(Self.defaultMicrosecondsPerQuarterNote) * perTick)
            ]
            for (tick, tempo) in changes {
                let last = segments[segments.count - 1]
                let segment = Segment(
                    tick: tick, seconds: last.seconds + Double(tick - last.tick) * last.secondsPerTick,
                    microsecondsPerQuarterNote: tempo, secondsPerTick: Double(tempo) * perTick)
                if tick == last.tick {
                    segments[segments.count - 1] = segment
                } else {
                    segments.append(segment)
                }
            }
            self.segments = segments
        }
    }

    /// Tempo events as (time line tick, microseconds per quarter note), in track
    /// order, each track's in file order.
    private static func tempoChanges(in file: MIDIFile, timeline: Timeline) -> [(tick: UInt64, microsecondsPerQuarterNote: UInt32)] {
        var changes: [(tick: UInt64, microsecondsPerQuarterNote: UInt32)] = []
        for (index, track) in file.tracks.enumerated() {
            let start = timeline.trackStartTicks[index]
            // Among the meta events alone: the payload table is tiny next to the events.
            for payload in track.payloads where payload.metaType == 0x51 {
                let event = track.events[Int(payload.eventIndex)]
                guard event.status == 0xFF, let tempo = Self.tempo(payload: track.payload(of: event)) else { continue }
                changes.append((start + UInt64(event.tick), tempo))
            }
        }
        return changes
    }

    /// The tempo a tempo event's bytes set, in microseconds per quarter note;
    /// `nil` for a length other than 3 or a tempo of 0, which the map ignores.
    static func tempo(payload: some Collection<UInt8>) -> UInt32? {
        guard payload.count == 3 else { return nil }
        let tempo = payload.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return tempo == 0 ? nil : tempo
    }

    /// The index of the segment holding `tick`.
    func segmentIndex(atTick tick: UInt64) -> Int {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].tick <= tick { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The time of a tick on the time line.
    public func seconds(atTick tick: UInt64) -> Double {
        seconds(atTick: tick, in: segments[segmentIndex(atTick: tick)])
    }

    /// The time of a tick, as ``seconds(atTick:)`` gives it, looked for first in
    /// segment `hint` and the one after it; `hint` becomes the segment that holds
    /// the tick. For ticks that come in time order, each is found in constant time.
    public func seconds(atTick tick: UInt64, segmentHint hint: inout Int) -> Double {
        if !holds(tick, segment: hint) {
            hint = hint < segments.count - 1 && holds(tick, segment: hint + 1) ? hint + 1 : segmentIndex(atTick: tick)
        }
        return seconds(atTick: tick, in: segments[hint])
    }

    private func holds(_ tick: UInt64, segment index: Int) -> Bool {
        segments.indices.contains(index) && segments[index].tick <= tick
            && (index + 1 == segments.count || segments[index + 1].tick > tick)
    }

    func seconds(atTick tick: UInt64, in segment: Segment) -> Double {
        segment.seconds + Double(tick - segment.tick) * segment.secondsPerTick
    }

    /// The first tick at or after a time (0 for negative times).
    public func tick(atSeconds seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].seconds <= seconds { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        // The tolerance keeps a time computed from a tick mapping back to that tick.
        let ticks = ((seconds - segment.seconds) / segment.secondsPerTick - 1e-6).rounded(.up)
        return segment.tick + (ticks <= 0 ? 0 : ticks < 1.8e19 ? UInt64(ticks) : UInt64.max / 2)
    }

    /// The tempo in force at a tick, in microseconds per quarter note; `nil` for an SMPTE division.
    public func microsecondsPerQuarterNote(atTick tick: UInt64) -> UInt32? {
        segments[segmentIndex(atTick: tick)].microsecondsPerQuarterNote
    }
}
