/// Reads an HMI song (Human Machine Interfaces' other format: `HMI-MIDISONG061595`) into the
/// ``MIDIFile`` smfplay plays: each `HMI-MIDITRACK` a track, at 60 ticks a quarter note and the
/// header's beats a minute. Its events are MIDI's, running status and delta times as in a MIDI
/// file, but for a note on, followed by the note's length (as XMI's: made a note off here), and
/// the driver's own events (status FE), left out. The layout is WildMIDI's reading of the format
/// (`docs/formats/HmiFileFormat.txt` and its reader's offsets: the tempo at byte 212, the track
/// count at 228, the tracks' offsets from 370, a track's header length at its byte 87).
struct HMIReader {
    /// How an HMI song starts (`061595`, the version's date, follows): 12 bytes, as many as the
    /// head every reader looks at (``MIDIFileSignature/length``).
    static let signature = Array("HMI-MIDISONG".utf8)
    static let ticksPerQuarterNote: UInt16 = 60
    private static let trackSignature = Array("HMI-MIDITRACK".utf8)

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
    }

    static func isHMI(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    private func littleEndian32(at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    mutating func read() throws(SMFError) -> SMFReader.Output {
        guard bytes.count >= 370 else { throw .truncatedHeader(offset: bytes.count) }
        let beatsPerMinute = Int(bytes[212])
        let trackCount = Int(bytes[228])
        guard trackCount > 0 else { throw .hmiWithoutTracks }
        guard beatsPerMinute > 0 else { throw .hmiWithoutTempo }
        var tracks: [Track] = []
        for index in 0..<trackCount {
            let entry = 370 + 4 * index
            guard entry + 4 <= bytes.count else {
                try log.add(.hmiCutOff(offset: entry))
                break
            }
            let start = littleEndian32(at: entry)
            guard start >= 0, start + 91 <= bytes.count, Self.trackSignature.elementsEqual(bytes[start..<start + 13]) else {
                try log.add(.hmiCutOff(offset: start))
                continue
            }
            let headerLength = littleEndian32(at: start + 87)
            guard headerLength >= 91, start + headerLength < bytes.count else {
                try log.add(.hmiCutOff(offset: start))
                continue
            }
            // A track has no length: it ends at its End of Track, or where the next one starts.
            let next = (0..<trackCount).map { 370 + 4 * $0 }.filter { $0 + 4 <= bytes.count }.map(littleEndian32(at:)).filter { $0 > start }.min()
            tracks.append(try track(in: start + headerLength..<min(bytes.count, next ?? bytes.count)))
        }
        return SMFReader.Output(beatsPerMinute: beatsPerMinute, ticksPerQuarterNote: Self.ticksPerQuarterNote, tracks: tracks, kind: .hmi, log: log)
    }

    /// One track's events.
    private mutating func track(in events: Range<Int>) throws(SMFError) -> Track {
        var timed = TimedEvents()
        var tick: UInt64 = 0
        var cursor = EventCursor(bytes, events)
        var running: UInt8?
        var hasEnd = false
        eventLoop: while !cursor.isAtEnd {
            let at = cursor.offset
            guard let step = cursor.quantity(), let next = cursor.next else {
                try log.add(.hmiCutOff(offset: at))
                break
            }
            tick += UInt64(step)
            let status: UInt8
            if next >= 0x80 {
                status = next
                cursor.skip(1)
            } else if let running {
                status = running
            } else {
                try log.add(.hmiUnknownStatus(next, offset: cursor.offset))
                break
            }
            switch status {
            case 0x80...0xEF:
                running = status
                guard let data = cursor.data(status & 0xE0 == 0xC0 ? 1 : 2) else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                timed.append(MIDIMessage(channelStatus: status, data1: data[0], data2: data.count == 2 ? data[1] : 0), atTick: tick)
                if status & 0xF0 == 0x90, data[1] > 0 {
                    guard let length = cursor.quantity() else {
                        try log.add(.hmiCutOff(offset: at))
                        break eventLoop
                    }
                    timed.appendNoteOff(channel: status & 0x0F, note: data[0], atTick: tick + UInt64(length))
                }
            case 0xF0, 0xF7:
                running = nil
                guard let message = cursor.systemExclusive() else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                if status == 0xF0 { timed.append(.systemExclusive(message), atTick: tick) }
            case 0xFE:
                // The driver's own events, as WildMIDI skips them: 0x10 two bytes, a length, as many
                // and four more; 0x15 six bytes; the rest two.
                guard let type = cursor.next, let length = cursor.offset + 3 < cursor.end ? bytes[cursor.offset + 3] : nil else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                cursor.skip(type == 0x10 ? Int(length) + 8 : type == 0x15 ? 7 : 3)
            case 0xFF:
                guard let meta = cursor.meta() else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                if meta.type == 0x2F {
                    hasEnd = true
                    break eventLoop
                }
                timed.append(.meta(MetaEvent(type: meta.type, data: meta.data)), atTick: tick)
            default:
                try log.add(.hmiUnknownStatus(status, offset: at))
                break eventLoop
            }
        }
        if !hasEnd { try log.add(.hmiWithoutEnd(offset: events.lowerBound)) }
        return try timed.laid(endingAt: tick, offset: events.lowerBound)
    }
}
