/// One event of a track as it is stored: eight bytes, no references.
///
/// A track of two million notes holds four million of these, so the layout is
/// kept to a tick and one packed word. Channel messages carry their data bytes
/// in the word; system exclusive and meta events carry an index into the
/// track's payload table (see ``Track/payload(of:)``).
public struct TrackEvent: Hashable, Sendable {
    /// Absolute time in ticks from the start of the track.
    public var tick: UInt32
    /// Status byte in bits 24–31; channel data bytes (raw, as in the file) or a
    /// payload index in bits 0–23.
    @usableFromInline var word: UInt32

    @inlinable init(tick: UInt32, status: UInt8, low24: UInt32) {
        self.tick = tick
        self.word = UInt32(status) << 24 | low24
    }

    /// The status byte: 0x80–0xEF for channel messages, 0xF0 or 0xF7 for
    /// system exclusive, 0xFF for meta events.
    @inlinable public var status: UInt8 { UInt8(truncatingIfNeeded: word >> 24) }

    /// First data byte of a channel message, exactly as stored in the file
    /// (it may exceed 127 in damaged files; ``MIDIMessage`` masks it).
    @inlinable public var data1: UInt8 { UInt8(truncatingIfNeeded: word >> 8) }

    /// Second data byte of a channel message, as stored; 0 for messages with one data byte.
    @inlinable public var data2: UInt8 { UInt8(truncatingIfNeeded: word) }

    /// Whether this is a channel message (note, controller, program, pressure, pitch bend).
    @inlinable public var isChannelMessage: Bool { status < 0xF0 }

    /// The channel (0–15) of a channel message.
    @inlinable public var channel: UInt8 { status & 0x0F }

    /// A note-on with a non-zero velocity: the only event that starts a note.
    @inlinable public var startsNote: Bool { status & 0xF0 == 0x90 && data2 & 0x7F != 0 }

    /// A note-off, or a note-on with velocity 0, which means the same for playback.
    @inlinable public var endsNote: Bool {
        status & 0xF0 == 0x80 || (status & 0xF0 == 0x90 && data2 & 0x7F == 0)
    }

    @usableFromInline var payloadIndex: Int { Int(word & 0x00FF_FFFF) }

    /// Largest payload index the packed word can hold.
    static let maximumPayloadIndex = 0x00FF_FFFF

    /// Number of data bytes that follow a channel status byte.
    @inlinable static func dataLength(ofChannelStatus status: UInt8) -> Int {
        status & 0xE0 == 0xC0 ? 1 : 2
    }
}
