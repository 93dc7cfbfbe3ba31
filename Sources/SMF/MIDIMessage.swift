/// A track event decoded for use: what a sequencer sends or a person reads.
///
/// Channel data bytes are masked to 7 bits, as a synthesizer would read them;
/// ``TrackEvent`` keeps the raw bytes.
public enum MIDIMessage: Hashable, Sendable {
    /// Note off (0x8n). Note-on with velocity 0 stays a ``noteOn(channel:note:velocity:)``;
    /// use ``TrackEvent/endsNote`` to treat both alike.
    case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Note on (0x9n).
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Polyphonic key pressure (0xAn), "poly aftertouch".
    case notePressure(channel: UInt8, note: UInt8, pressure: UInt8)
    /// Control change (0xBn), including channel mode messages (controllers 120–127).
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    /// Program change (0xCn).
    case programChange(channel: UInt8, program: UInt8)
    /// Channel pressure (0xDn), "mono aftertouch".
    case channelPressure(channel: UInt8, pressure: UInt8)
    /// Pitch bend (0xEn): 0–16383, 8192 is the centre.
    case pitchBend(channel: UInt8, value: UInt16)
    /// System exclusive in its `F0` form: the bytes after the length, usually ending in `F7`.
    case systemExclusive([UInt8])
    /// An `F7` event: a continuation packet of a split system exclusive, or an
    /// escape carrying any bytes to be sent as they are.
    case escapedBytes([UInt8])
    /// A meta event (0xFF).
    case meta(MetaEvent)

    /// The channel of a channel message; `nil` for system exclusive and meta events.
    public var channel: UInt8? {
        switch self {
        case .noteOff(let channel, _, _), .noteOn(let channel, _, _), .notePressure(let channel, _, _),
            .controlChange(let channel, _, _), .programChange(let channel, _),
            .channelPressure(let channel, _), .pitchBend(let channel, _):
            channel
        case .systemExclusive, .escapedBytes, .meta:
            nil
        }
    }
}

extension MIDIMessage {
    /// Decodes a channel message from its status and raw data bytes.
    init(channelStatus status: UInt8, data1 rawData1: UInt8, data2 rawData2: UInt8) {
        let channel = status & 0x0F
        let data1 = rawData1 & 0x7F
        let data2 = rawData2 & 0x7F
        switch status & 0xF0 {
        case 0x80: self = .noteOff(channel: channel, note: data1, velocity: data2)
        case 0x90: self = .noteOn(channel: channel, note: data1, velocity: data2)
        case 0xA0: self = .notePressure(channel: channel, note: data1, pressure: data2)
        case 0xB0: self = .controlChange(channel: channel, controller: data1, value: data2)
        case 0xC0: self = .programChange(channel: channel, program: data1)
        case 0xD0: self = .channelPressure(channel: channel, pressure: data1)
        default: self = .pitchBend(channel: channel, value: UInt16(data2) << 7 | UInt16(data1))
        }
    }

    /// The status and data bytes of a channel message; `nil` for other messages.
    var channelBytes: (status: UInt8, data1: UInt8, data2: UInt8)? {
        switch self {
        case .noteOff(let c, let n, let v): (0x80 | c & 0x0F, n, v)
        case .noteOn(let c, let n, let v): (0x90 | c & 0x0F, n, v)
        case .notePressure(let c, let n, let p): (0xA0 | c & 0x0F, n, p)
        case .controlChange(let c, let n, let v): (0xB0 | c & 0x0F, n, v)
        case .programChange(let c, let p): (0xC0 | c & 0x0F, p, 0)
        case .channelPressure(let c, let p): (0xD0 | c & 0x0F, p, 0)
        case .pitchBend(let c, let v): (0xE0 | c & 0x0F, UInt8(v & 0x7F), UInt8(v >> 7 & 0x7F))
        case .systemExclusive, .escapedBytes, .meta: nil
        }
    }
}
