/// Keeps every event the parser finds, as the compact ``TrackEvent``s and
/// payload table of a ``Track``.
struct TrackBuilder: TrackEventVisitor {
    private let events: UnsafeMutableBufferPointer<TrackEvent>
    private(set) var count = 0
    private(set) var payloads: [Payload] = []
    private(set) var payloadBytes: [UInt8] = []
    private(set) var channelUse = TrackChannelUse()
    /// The track's number, for the error that refuses more events than can be indexed.
    private let number: Int

    private init(events: UnsafeMutableBufferPointer<TrackEvent>, number: Int) {
        self.events = events
        self.number = number
    }

    /// Reads a whole track, with its warnings.
    static func track(from parser: TrackParser, policy: SMFReadingPolicy) throws(SMFError) -> (Track, WarningLog) {
        var outcome: Result<WarningLog, SMFError>?
        var payloads: [Payload] = []
        var payloadBytes: [UInt8] = []
        var channelUse = TrackChannelUse()
        // Every event takes at least two bytes (a delta and a data byte), so
        // this capacity cannot be exceeded; pages never written stay unallocated.
        let capacity = parser.body.count / 2 + 1
        let events = [TrackEvent](unsafeUninitializedCapacity: capacity) { buffer, count in
            var builder = TrackBuilder(events: buffer, number: parser.number)
            outcome = Result { () throws(SMFError) in try parser.parse(policy: policy, into: &builder) }
            count = builder.count
            payloads = builder.payloads
            payloadBytes = builder.payloadBytes
            channelUse = builder.channelUse
        }
        // The initializer always runs its closure.
        let log = try outcome!.get()
        return (Track(events: events, payloads: payloads, payloadBytes: payloadBytes, channelUse: channelUse), log)
    }

    mutating func visitChannelMessage(tick: UInt32, status: UInt8, data1: UInt8, data2: UInt8) {
        let event = TrackEvent(tick: tick, status: status, low24: UInt32(data1) << 8 | UInt32(data2))
        channelUse.count(event, at: count)
        events[count] = event
        count += 1
    }

    mutating func visitPayloadEvent(
        tick: UInt32, status: UInt8, metaType: UInt8,
        payload: UnsafeBufferPointer<UInt8>, offset: Int
    ) throws(SMFError) {
        guard payloads.count <= TrackEvent.maximumPayloadIndex else { throw .tooManyEvents(offset: offset, track: number) }
        payloads.append(Payload(start: UInt32(payloadBytes.count), count: UInt32(payload.count), eventIndex: UInt32(count), metaType: metaType))
        payloadBytes.append(contentsOf: payload)
        events[count] = TrackEvent(tick: tick, status: status, low24: UInt32(payloads.count - 1))
        count += 1
    }
}
