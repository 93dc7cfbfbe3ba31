/// Where a system exclusive or meta event's bytes lie in its track's payload storage.
@usableFromInline struct Payload: Hashable, Sendable {
    var start: UInt32
    var count: UInt32
    /// The event's place in its track's events: passes that want only these events (texts, tempos,
    /// system exclusive messages) go through the payloads instead of every event.
    @usableFromInline var eventIndex: UInt32
    /// The meta event type (0x00–0x7F, or any byte found in a damaged file); 0 for system exclusive.
    var metaType: UInt8
}
