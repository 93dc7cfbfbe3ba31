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
        var tempoTrack = Track()
        tempoTrack.append(.meta(.tempo(microsecondsPerQuarterNote: UInt32(60_000_000 / beatsPerMinute))), atTick: 0)
        var tracks = [tempoTrack]
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
        let end = tracks.map(\.lengthInTicks).max() ?? 0
        tracks[0].appendEnd(atTick: UInt64(end))
        return SMFReader.Output(
            file: MIDIFile(
                format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: Self.ticksPerQuarterNote), tracks: tracks, kind: .hmi),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    /// One track's events.
    private mutating func track(in events: Range<Int>) throws(SMFError) -> Track {
        var timed: [(tick: UInt64, order: Int, message: MIDIMessage)] = []
        var tick: UInt64 = 0
        var offset = events.lowerBound
        var running: UInt8?
        var hasEnd = false
        func quantity() -> Int? {
            var value = 0
            for _ in 0..<4 {
                guard offset < events.upperBound else { return nil }
                let byte = bytes[offset]
                offset += 1
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            return nil
        }
        eventLoop: while offset < events.upperBound {
            let at = offset
            guard let step = quantity(), offset < events.upperBound else {
                try log.add(.hmiCutOff(offset: at))
                break
            }
            tick += UInt64(step)
            let order = timed.count * 2 + 1
            var status = bytes[offset]
            if status >= 0x80 {
                offset += 1
            } else if let running {
                status = running
            } else {
                try log.add(.hmiUnknownStatus(status, offset: offset))
                break
            }
            switch status {
            case 0x80...0xEF:
                running = status
                let count = status & 0xE0 == 0xC0 ? 1 : 2
                guard offset + count <= events.upperBound else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                let data = (0..<count).map { bytes[offset + $0] & 0x7F }
                offset += count
                timed.append((tick, order, MIDIMessage(channelStatus: status, data1: data[0], data2: count == 2 ? data[1] : 0)))
                if status & 0xF0 == 0x90, data[1] > 0 {
                    guard let length = quantity() else {
                        try log.add(.hmiCutOff(offset: at))
                        break eventLoop
                    }
                    // Before what else happens at its tick, so that a note struck again there sounds.
                    timed.append((tick + UInt64(length), 0, .noteOff(channel: status & 0x0F, note: data[0], velocity: 0)))
                }
            case 0xF0, 0xF7:
                running = nil
                guard let length = quantity(), offset + length <= events.upperBound else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                if status == 0xF0 { timed.append((tick, order, .systemExclusive(Array(bytes[offset..<offset + length])))) }
                offset += length
            case 0xFE:
                // The driver's own events, as WildMIDI skips them: 0x10 two bytes, a length, as many
                // and four more; 0x15 six bytes; the rest two.
                guard offset + 3 <= events.upperBound else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                offset += bytes[offset] == 0x10 ? Int(bytes[offset + 3]) + 8 : bytes[offset] == 0x15 ? 7 : 3
            case 0xFF:
                guard offset < events.upperBound else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                let type = bytes[offset]
                offset += 1
                guard let length = quantity(), offset + length <= events.upperBound else {
                    try log.add(.hmiCutOff(offset: at))
                    break eventLoop
                }
                let payload = bytes[offset..<offset + length]
                offset += length
                if type == 0x2F {
                    hasEnd = true
                    break eventLoop
                }
                timed.append((tick, order, .meta(MetaEvent(type: type, data: payload))))
            default:
                try log.add(.hmiUnknownStatus(status, offset: at))
                break eventLoop
            }
        }
        if !hasEnd { try log.add(.hmiWithoutEnd(offset: events.lowerBound)) }
        var track = Track()
        for event in timed.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) {
            guard event.tick <= UInt64(UInt32.max), event.tick - UInt64(track.lengthInTicks) <= UInt64(Track.maximumDelta) else {
                throw .trackTooLong(offset: events.lowerBound, track: 1)
            }
            track.append(event.message, atTick: UInt32(event.tick))
        }
        track.appendEnd(atTick: tick)
        return track
    }
}
