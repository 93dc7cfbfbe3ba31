/// Reads an XMI file (the Miles Sound System's extended MIDI: an IFF `FORM XDIR` with a `CAT
/// XMID` of songs, or a lone `FORM XMID`) into the ``MIDIFile`` smfplay plays: its first song's
/// `EVNT` chunk as one track, or another song's (a file of several is a folder of songs,
/// `music.xmi/2` the second: ``SMFReader/read(path:)``). XMI counts time at 120 ticks a second whatever its tempo events say
/// (the Miles driver ignores them: the delays were made at that rate), writes a note's length
/// after its note on instead of a note off, and needs no running status; delays are runs of bytes
/// below 0x80, added up. Its loop marks (controllers 116/117) are read as loops (``SongLoop``).
struct XMIReader {
    static let ticksPerQuarterNote: UInt16 = 60

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog
    /// Which song, from 0; nil for the file as a whole, read as its first song with a warning
    /// when it has more.
    private let song: Int?

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy, song: Int? = nil) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
        self.song = song
    }

    static func isXMI(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(12))
        return head.count == 12 && head[0..<4].elementsEqual("FORM".utf8)
            && (head[8..<12].elementsEqual("XDIR".utf8) || head[8..<12].elementsEqual("XMID".utf8))
    }

    mutating func read() throws(SMFError) -> SMFReader.Output {
        let songs = Self.songs(in: bytes)
        guard !songs.isEmpty else { throw .xmiWithoutEvents }
        guard (song ?? 0) < songs.count else { throw .xmiNoSuchSong(number: (song ?? 0) + 1, count: songs.count) }
        let events = songs[song ?? 0]
        if songs.count > 1, song == nil { try log.add(.xmiSongsBeyondTheFirst(count: songs.count - 1)) }
        var timed = TimedEvents()
        var tick: UInt64 = 0
        var cursor = EventCursor(bytes, events)
        var hasEnd = false
        eventLoop: while let byte = cursor.byte() {
            if byte < 0x80 {
                tick += UInt64(byte)
                continue
            }
            let start = cursor.offset - 1
            switch byte {
            case 0x80...0xEF:
                guard let values = cursor.data(byte & 0xE0 == 0xC0 ? 1 : 2) else {
                    try log.add(.xmiCutOff(offset: start))
                    break eventLoop
                }
                timed.append(MIDIMessage(channelStatus: byte, data1: values[0], data2: values.count > 1 ? values[1] : 0), atTick: tick)
                if byte & 0xF0 == 0x90 {
                    guard let length = cursor.quantity() else {
                        try log.add(.xmiCutOff(offset: start))
                        break eventLoop
                    }
                    timed.appendNoteOff(channel: byte & 0x0F, note: values[0], atTick: tick + UInt64(length))
                }
            case 0xF0:
                guard let message = cursor.systemExclusive() else {
                    try log.add(.xmiCutOff(offset: start))
                    break eventLoop
                }
                timed.append(.systemExclusive(message), atTick: tick)
            case 0xFF:
                guard let meta = cursor.meta() else {
                    try log.add(.xmiCutOff(offset: start))
                    break eventLoop
                }
                if meta.type == 0x2F {
                    hasEnd = true
                    break eventLoop
                }
                // Tempo is left out: the delays already play at 120 ticks a second.
                if meta.type != 0x51 { timed.append(.meta(MetaEvent(type: meta.type, data: meta.data)), atTick: tick) }
            default:
                try log.add(.xmiUnknownStatus(byte, offset: start))
                break eventLoop
            }
        }
        if !hasEnd, log.warnings.allSatisfy({ if case .xmiSongsBeyondTheFirst = $0 { true } else { false } }) { try log.add(.xmiWithoutEnd) }
        var tempo = Track()
        tempo.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        let track = try timed.laid(into: tempo, endingAt: tick, offset: events.lowerBound)
        return SMFReader.Output(
            file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: Self.ticksPerQuarterNote), tracks: [track], kind: .xmi),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    /// The bytes of each song's `EVNT` chunk, in order.
    static func songs(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var songs: [Range<Int>] = []
        var offset = 0
        // Chunks are walked into (FORM, CAT) or over; each EVNT is a song's.
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) << 24 | Int(bytes[offset + 5]) << 16 | Int(bytes[offset + 6]) << 8 | Int(bytes[offset + 7])
            let body = offset + 8
            switch id {
            case "FORM", "CAT ":
                offset = body + 4
            case "EVNT":
                songs.append(body..<min(bytes.count, body + size))
                offset = body + size + size % 2
            default:
                offset = body + size + size % 2
            }
        }
        return songs
    }
}
