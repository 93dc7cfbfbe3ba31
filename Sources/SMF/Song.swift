/// A MIDI file made ready to play: its time line, tempo map and merged events.
public struct Song: Sendable {
    public let file: MIDIFile
    public let timeline: Timeline
    public let tempoMap: TempoMap

    public init(file: MIDIFile) {
        self.file = file
        timeline = Timeline(file: file)
        tempoMap = TempoMap(file: file, timeline: timeline)
    }

    /// The last tick of the song (End of Track included).
    public var endTick: UInt64 { timeline.endTick(of: file) }

    /// The song's length in seconds, to its last event (End of Track included).
    public var duration: Double { tempoMap.seconds(atTick: endTick) }

    /// The decoded message of a merged event.
    public func message(of event: TimedEvent) -> MIDIMessage {
        file.tracks[event.track].message(of: event.event)
    }

    /// The bytes of a merged system exclusive or meta event.
    public func payload(of event: TimedEvent) -> ArraySlice<UInt8> {
        file.tracks[event.track].payload(of: event.event)
    }

    /// Every event of every track in time order. Stable: at equal ticks,
    /// events keep track order, and within a track, file order.
    public func mergedEvents() -> [TimedEvent] {
        var merged: [TimedEvent] = []
        merged.reserveCapacity(file.tracks.reduce(0) { $0 + $1.events.count })
        forEachMergedEvent { merged.append($0) }
        return merged
    }

    /// Calls `body` with every event in the order of ``mergedEvents()``, keeping none: a pass that
    /// looks at each event once (a summary, the lyrics) needs no second copy of a large song.
    public func forEachMergedEvent(_ body: (TimedEvent) -> Void) {
        var heap = TrackHeap(tracks: file.tracks, starts: timeline.trackStartTicks)
        var segmentIndex = 0
        let segments = tempoMap.segments
        while let (track, index) = heap.popNext() {
            let event = file.tracks[track].events[index]
            let tick = timeline.trackStartTicks[track] + UInt64(event.tick)
            while segmentIndex + 1 < segments.count, segments[segmentIndex + 1].tick <= tick { segmentIndex += 1 }
            body(TimedEvent(seconds: tempoMap.seconds(atTick: tick, in: segments[segmentIndex]), tick: tick, track: track, event: event))
        }
    }
}

extension Song {
    /// The system exclusive and meta events (those with bytes of their own) `isWanted` picks,
    /// given each with its track (which knows a meta event's type), in the order of
    /// ``mergedEvents()``: found track by track among those events alone (see
    /// ``Track/payloadEventIndices``), then sorted. For a pass that wants few of the events (the
    /// texts, the system exclusive messages), which a merge of every event would walk through one
    /// by one.
    public func mergedPayloadEvents(where isWanted: (Track, TrackEvent) -> Bool) -> [TimedEvent] {
        var places: [(tick: UInt64, track: Int, index: Int)] = []
        for (track, content) in file.tracks.enumerated() {
            let start = timeline.trackStartTicks[track]
            for index in content.payloadEventIndices where isWanted(content, content.events[index]) {
                places.append((start + UInt64(content.events[index].tick), track, index))
            }
        }
        places.sort { ($0.tick, $0.track, $0.index) < ($1.tick, $1.track, $1.index) }
        var segment = 0
        return places.map { place in
            let seconds = tempoMap.seconds(atTick: place.tick, segmentHint: &segment)
            return TimedEvent(seconds: seconds, tick: place.tick, track: place.track, event: file.tracks[place.track].events[place.index])
        }
    }
}

/// A min-heap of tracks keyed by the time line tick of their next event, then track index.
private struct TrackHeap {
    private let tracks: [Track]
    private let starts: [UInt64]
    private var cursors: [Int]
    private var heap: [(tick: UInt64, track: Int)] = []

    init(tracks: [Track], starts: [UInt64]) {
        self.tracks = tracks
        self.starts = starts
        cursors = Array(repeating: 0, count: tracks.count)
        for (index, track) in tracks.enumerated() where !track.events.isEmpty {
            push((starts[index] + UInt64(track.events[0].tick), index))
        }
    }

    /// The track and event index of the next event, advancing past it.
    mutating func popNext() -> (Int, Int)? {
        guard let top = heap.first else { return nil }
        let track = top.track
        let index = cursors[track]
        let next = index + 1
        cursors[track] = next
        if next < tracks[track].events.count {
            let tick = starts[track] + UInt64(tracks[track].events[next].tick)
            heap[0].tick = tick
            siftDown(0)
        } else {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            if !heap.isEmpty { siftDown(0) }
        }
        return (track, index)
    }

    @inline(__always)
    private func precedes(_ a: (tick: UInt64, track: Int), _ b: (tick: UInt64, track: Int)) -> Bool {
        a.tick < b.tick || (a.tick == b.tick && a.track < b.track)
    }

    private mutating func push(_ element: (tick: UInt64, track: Int)) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
