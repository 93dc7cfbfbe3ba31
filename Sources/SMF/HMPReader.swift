/// Reads an HMP file (Human Machine Interfaces' MIDI: Descent, Duke Nukem 3D and others of its
/// sound system) into the ``MIDIFile`` smfplay plays: each chunk a track, at 60 ticks a quarter
/// note and the header's beats a minute. HMP is MIDI with its own delta times (7 bits a byte, the
/// lowest first, the last byte marked by its top bit: MIDI's the other way round) and a status
/// byte on every event (no running status). Controllers 110 and 111 with values above 127 are the
/// HMI driver's loop marks, no MIDI: they are left out, their time kept. The format is described
/// by WildMIDI's `docs/formats/HmpFileFormat.txt`; HMI's other format, HMI songs
/// (`HMI-MIDISONG`), is another reader's.
struct HMPReader {
    static let signature = Array("HMIMIDIP".utf8)
    static let ticksPerQuarterNote: UInt16 = 60

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
    }

    static func isHMP(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    /// Where the chunks start: the first version's header is 776 bytes, the second's (`013195`
    /// after the signature) 904.
    private var chunksStart: Int {
        bytes.count >= 14 && bytes[8..<14].elementsEqual("013195".utf8) ? 904 : 776
    }

    private func littleEndian32(at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    mutating func read() throws(SMFError) -> SMFReader.Output {
        let start = chunksStart
        guard bytes.count >= start else { throw .truncatedHeader(offset: bytes.count) }
        let chunkCount = littleEndian32(at: 48)
        let beatsPerMinute = littleEndian32(at: 56)
        guard chunkCount > 0 else { throw .hmiWithoutTracks }
        guard beatsPerMinute > 0 else { throw .hmiWithoutTempo }
        var tracks: [Track] = []
        var offset = start
        for _ in 0..<chunkCount {
            guard offset + 12 <= bytes.count else {
                try log.add(.hmiCutOff(offset: offset))
                break
            }
            let length = littleEndian32(at: offset + 4)
            guard length >= 12 else {
                try log.add(.hmiCutOff(offset: offset))
                break
            }
            let end = min(bytes.count, offset + length)
            tracks.append(try track(in: offset + 12..<end))
            if offset + length > bytes.count {
                try log.add(.hmiCutOff(offset: bytes.count))
                break
            }
            offset += length
        }
        return SMFReader.Output(beatsPerMinute: beatsPerMinute, ticksPerQuarterNote: Self.ticksPerQuarterNote, tracks: tracks, kind: .hmp, log: log)
    }

    /// One chunk's events as a track.
    private mutating func track(in events: Range<Int>) throws(SMFError) -> Track {
        var track = Track()
        var tick: UInt64 = 0
        var cursor = EventCursor(bytes, events)
        var hasEnd = false
        eventLoop: while !cursor.isAtEnd {
            let at = cursor.offset
            guard let step = Self.delta(&cursor), let status = cursor.byte() else {
                try log.add(.hmiCutOff(offset: at))
                break
            }
            tick += step
            guard tick <= UInt64(UInt32.max), tick - UInt64(track.lengthInTicks) <= UInt64(Track.maximumDelta) else {
                throw .trackTooLong(offset: at, track: 1)
            }
            switch status {
            case 0x80...0xEF:
                let count = status & 0xE0 == 0xC0 ? 1 : 2
                guard let data = cursor.data(count) else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                // The driver's loop marks (the value as written, its top bit set): no MIDI.
                let value = bytes[cursor.offset - 1]
                if status & 0xF0 == 0xB0, data[0] == 110 || data[0] == 111, value > 0x7F { continue }
                track.append(MIDIMessage(channelStatus: status, data1: data[0], data2: count == 2 ? data[1] : 0), atTick: UInt32(tick))
            case 0xF0, 0xF7:
                guard let message = cursor.systemExclusive() else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                if status == 0xF0 { track.append(.systemExclusive(message), atTick: UInt32(tick)) }
            case 0xFF:
                guard let meta = cursor.meta() else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                if meta.type == 0x2F {
                    hasEnd = true
                    break eventLoop
                }
                track.append(.meta(MetaEvent(type: meta.type, data: meta.data)), atTick: UInt32(tick))
            default:
                try log.add(.hmiUnknownStatus(status, offset: at))
                break eventLoop
            }
        }
        if !hasEnd, cursor.isAtEnd { try log.add(.hmiWithoutEnd(offset: events.lowerBound)) }
        track.appendEnd(atTick: tick)
        return track
    }

    /// An HMP delta: 7 bits a byte, lowest first, the last byte with its top bit set.
    private static func delta(_ cursor: inout EventCursor) -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard let byte = cursor.byte() else { return nil }
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 != 0 { return value }
        }
        return nil
    }
}
