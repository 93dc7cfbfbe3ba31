/// Hands the events of one track, as ``TrackParser`` finds them, to an
/// ``SMFEventVisitor``, placed on the song's time line.
struct TimelineVisitor<Outer: SMFEventVisitor>: TrackEventVisitor {
    /// The caller's visitor, reached through a pointer so that its storage (a
    /// pixel buffer, say) is never copied on the way.
    private let outer: UnsafeMutablePointer<Outer>
    /// Where the track starts on the time line.
    private let start: UInt64
    /// The tick of the track's last event so far, from the track's start.
    private(set) var lastTick: UInt32 = 0

    init(outer: UnsafeMutablePointer<Outer>, start: UInt64) {
        self.outer = outer
        self.start = start
    }

    mutating func visitChannelMessage(tick: UInt32, status: UInt8, data1: UInt8, data2: UInt8) {
        lastTick = tick
        outer.pointee.visitChannelMessage(
            TrackEvent(tick: tick, status: status, low24: UInt32(data1) << 8 | UInt32(data2)),
            atTick: start + UInt64(tick))
    }

    mutating func visitPayloadEvent(
        tick: UInt32, status: UInt8, metaType: UInt8,
        payload: UnsafeBufferPointer<UInt8>, offset: Int
    ) {
        lastTick = tick
        if status == 0xFF, metaType == 0x51, let tempo = TempoMap.tempo(payload: payload) {
            outer.pointee.visitTempo(microsecondsPerQuarterNote: tempo, atTick: start + UInt64(tick))
        }
    }
}
