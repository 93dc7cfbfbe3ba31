/// One track chunk (`MTrk`): its events in file order, with their absolute ticks.
///
/// Events are stored compactly (``TrackEvent``); the bytes of system exclusive
/// and meta events live in the track's own payload storage, so a track is a
/// value that owns everything it refers to.
public struct Track: Hashable, Sendable {
    /// The events in file order; ticks never decrease.
    public internal(set) var events: [TrackEvent]
    @usableFromInline var payloads: [Payload]
    var payloadBytes: [UInt8]
    /// Its channel messages' channels, notes and selections, kept with its events.
    private(set) var channelUse: TrackChannelUse

    /// An empty track.
    public init() {
        events = []
        payloads = []
        payloadBytes = []
        channelUse = TrackChannelUse()
    }

    init(events: [TrackEvent], payloads: [Payload], payloadBytes: [UInt8], channelUse: TrackChannelUse) {
        self.events = events
        self.payloads = payloads
        self.payloadBytes = payloadBytes
        self.channelUse = channelUse
    }

    /// The tick of the last event (End of Track included), 0 for an empty track.
    public var lengthInTicks: UInt32 { events.last?.tick ?? 0 }

    /// The ticks since the previous event, as written in the file.
    public func delta(at index: Int) -> UInt32 {
        index == 0 ? events[0].tick : events[index].tick - events[index - 1].tick
    }

    /// The bytes of a system exclusive or meta event, byte-exact as in the file
    /// (after the length); empty for channel messages.
    public func payload(of event: TrackEvent) -> ArraySlice<UInt8> {
        guard !event.isChannelMessage else { return [] }
        let payload = payloads[event.payloadIndex]
        let start = Int(payload.start)
        return payloadBytes[start..<start + Int(payload.count)]
    }

    /// The meta type byte of a meta event; `nil` for other events.
    public func metaType(of event: TrackEvent) -> UInt8? {
        event.status == 0xFF ? payloads[event.payloadIndex].metaType : nil
    }

    /// The event decoded for use.
    public func message(of event: TrackEvent) -> MIDIMessage {
        switch event.status {
        case 0xF0: .systemExclusive(Array(payload(of: event)))
        case 0xF7: .escapedBytes(Array(payload(of: event)))
        case 0xFF: .meta(MetaEvent(type: payloads[event.payloadIndex].metaType, data: payload(of: event)))
        default: MIDIMessage(channelStatus: event.status, data1: event.data1, data2: event.data2)
        }
    }

    /// The places in ``events`` of its system exclusive and meta events (those with bytes of their
    /// own), in file order. They are few next to the notes: a pass that wants only them (texts,
    /// tempos, system exclusive messages) goes through these rather than every event. (Inlinable:
    /// other modules' passes are then specialised, not generic.)
    @inlinable public var payloadEventIndices: some RandomAccessCollection<Int> { payloads.lazy.map { Int($0.eventIndex) } }

    /// The track's name: the bytes of its first track-name meta event.
    public var name: [UInt8]? {
        for payload in payloads where payload.metaType == 0x03 && events[Int(payload.eventIndex)].status == 0xFF {
            let start = Int(payload.start)
            return Array(payloadBytes[start..<start + Int(payload.count)])
        }
        return nil
    }

    /// Whether the track ends with an End of Track meta event.
    public var hasEndOfTrack: Bool {
        guard let last = events.last else { return false }
        return metaType(of: last) == 0x2F
    }

    /// The longest delta a file can hold: a 4-byte variable-length quantity.
    public static let maximumDelta: UInt32 = 0x0FFF_FFFF

    /// Appends the End of Track at `tick`, or as near it as a track can: not before the last
    /// event, at most ``maximumDelta`` after it (a translated format's time may run on further
    /// than a MIDI file can say after a track's last event).
    mutating func appendEnd(atTick tick: UInt64) {
        let last = UInt64(lengthInTicks)
        append(.meta(.endOfTrack), atTick: UInt32(min(max(tick, last), last + UInt64(Self.maximumDelta))))
    }

    /// Appends a message at an absolute tick, which must not be before the last
    /// event's, nor more than ``maximumDelta`` after it.
    public mutating func append(_ message: MIDIMessage, atTick tick: UInt32) {
        precondition(
            tick >= lengthInTicks && tick - lengthInTicks <= Self.maximumDelta,
            "events must be appended in time order, at most 0x0FFFFFFF ticks apart")
        if let bytes = message.channelBytes {
            let event = TrackEvent(tick: tick, status: bytes.status, low24: UInt32(bytes.data1) << 8 | UInt32(bytes.data2))
            channelUse.count(event, at: events.count)
            events.append(event)
            return
        }
        switch message {
        case .systemExclusive(let bytes): appendPayloadEvent(status: 0xF0, metaType: 0, bytes: bytes, tick: tick)
        case .escapedBytes(let bytes): appendPayloadEvent(status: 0xF7, metaType: 0, bytes: bytes, tick: tick)
        case .meta(let meta):
            let (type, bytes) = meta.encoded
            appendPayloadEvent(status: 0xFF, metaType: type, bytes: bytes, tick: tick)
        default: preconditionFailure("channel messages are handled above")
        }
    }

    mutating func appendPayloadEvent(status: UInt8, metaType: UInt8, bytes: some Collection<UInt8>, tick: UInt32) {
        precondition(payloads.count <= TrackEvent.maximumPayloadIndex, "too many payload events in one track")
        payloads.append(Payload(start: UInt32(payloadBytes.count), count: UInt32(bytes.count), eventIndex: UInt32(events.count), metaType: metaType))
        payloadBytes.append(contentsOf: bytes)
        events.append(TrackEvent(tick: tick, status: status, low24: UInt32(payloads.count - 1)))
    }
}
