/// Reads a MIDI 2.0 Clip File (M2-116-U: `SMF2CLIP`, then Universal MIDI Packets, each in the
/// clip's sequence after a Delta Clockstamp) into the ``MIDIFile`` the rest of smfplay plays: a
/// format 1 file whose first track holds the clip's tempo, time and key signatures and texts,
/// and one track for each group its channel messages use, the group as the track's port (16
/// channels each). MIDI 2.0 channel voice messages are translated down (``MIDI2Translation``);
/// MIDI 1.0 ones in packets are taken as they are; SysEx7 packets are joined into messages.
struct MIDIClipReader {
    static let signature = Array("SMF2CLIP".utf8)

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog

    /// The clip's resolution, from its Delta Clockstamp Ticks Per Quarter Note.
    private var ticksPerQuarterNote: Int?
    private var tick: UInt64 = 0
    private var hasStarted = false
    private var hasEnded = false
    /// The conductor's events (tempo, signatures, texts), in clip order, placed once all are in.
    private var conductor: [(tick: UInt32, message: MIDIMessage)] = []
    private var texts = ClipTexts()
    private var groups: [UInt8: Track] = [:]
    /// SysEx7 packets of a message not yet ended, by group, with where the message began.
    private var systemExclusive: [UInt8: (bytes: [UInt8], offset: Int)] = [:]
    private var dropped: [MIDI2DroppedMessage: Int] = [:]

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
    }

    /// Whether `bytes` start as a MIDI 2.0 Clip File does.
    static func isClip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    /// The clip as a MIDI file, with the warnings about what was unusual.
    mutating func read() throws(SMFError) -> SMFReader.Output {
        var offset = Self.signature.count
        var packetsAfterEnd = 0
        while offset + 4 <= bytes.count {
            let first = word(at: offset)
            let count = UniversalMIDIPacket.wordCount(ofType: UInt8(first >> 28))
            guard offset + 4 * count <= bytes.count else {
                try log.add(.clipCutOff(offset: offset))
                break
            }
            let packet = UniversalMIDIPacket(
                words: (first, count > 1 ? word(at: offset + 4) : 0, count > 2 ? word(at: offset + 8) : 0, count > 3 ? word(at: offset + 12) : 0))
            if hasEnded {
                // No-ops and clockstamps may pad a clip's end.
                if packet.messageType != 0 { packetsAfterEnd += 1 }
            } else {
                try take(packet, at: offset)
            }
            offset += 4 * count
        }
        if offset < bytes.count, offset + 4 > bytes.count { try log.add(.clipCutOff(offset: offset)) }
        guard let ticksPerQuarterNote else { throw .clipWithoutTicksPerQuarterNote }
        if !hasEnded { try log.add(.clipWithoutEnd) }
        if packetsAfterEnd > 0 { try log.add(.clipDataAfterEnd(count: packetsAfterEnd)) }
        for pending in systemExclusive.values.sorted(by: { $0.offset < $1.offset }) {
            try log.add(.unfinishedClipSystemExclusive(offset: pending.offset))
        }
        for kind in MIDI2DroppedMessage.allCases { if let count = dropped[kind] { try log.add(.midi2MessagesDropped(kind, count: count)) } }
        return SMFReader.Output(
            file: MIDIFile(
                format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: UInt16(ticksPerQuarterNote)),
                tracks: try tracks(), kind: .midi2Clip),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }

    private func word(at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private mutating func take(_ packet: UniversalMIDIPacket, at offset: Int) throws(SMFError) {
        switch packet.messageType {
        case 0x0: try takeUtility(packet, at: offset)
        case 0x1: dropped[.systemMessage, default: 0] += 1
        case 0x2:
            try startIfNeeded()
            let status = packet.byte(1)
            guard status >= 0x80, status < 0xF0 else {
                dropped[.reserved, default: 0] += 1
                return
            }
            try append(MIDIMessage(channelStatus: status, data1: packet.byte3 & 0x7F, data2: packet.byte4 & 0x7F), group: packet.group, at: offset)
        case 0x3: try takeSystemExclusive(packet, at: offset)
        case 0x4:
            try startIfNeeded()
            switch MIDI2Translation.messages(of: packet) {
            case .messages(let messages): for message in messages { try append(message, group: packet.group, at: offset) }
            case .dropped(let kind): dropped[kind, default: 0] += 1
            }
        case 0x5: dropped[.eightBitData, default: 0] += 1
        case 0xD: try takeFlexData(packet, at: offset)
        case 0xF:
            switch packet.streamStatus {
            case 0x20: hasStarted = true
            case 0x21: hasEnded = true
            default: break // Endpoint and function block messages, profiles: nothing to play.
            }
        default: dropped[.reserved, default: 0] += 1
        }
    }

    /// Delta Clockstamps move the clip on (in its sequence; those of the header before it are
    /// at 0); the first Delta Clockstamp Ticks Per Quarter Note sets what a tick is.
    private mutating func takeUtility(_ packet: UniversalMIDIPacket, at offset: Int) throws(SMFError) {
        switch packet.status {
        case 0x3:
            let ticks = Int(packet.words.0 & 0xFFFF)
            guard ticksPerQuarterNote == nil else { return }
            guard (1...0x7FFF).contains(ticks) else { throw .clipTicksPerQuarterNoteOutOfRange(ticks) }
            ticksPerQuarterNote = ticks
        case 0x4:
            guard hasStarted else { return }
            tick += UInt64(packet.words.0 & 0xF_FFFF)
            guard tick <= UInt64(UInt32.max) else { throw .clipTooLong(offset: offset) }
        default: break // No-op, jitter reduction: nothing in a file.
        }
    }

    private mutating func takeSystemExclusive(_ packet: UniversalMIDIPacket, at offset: Int) throws(SMFError) {
        try startIfNeeded()
        let data = (0..<min(Int(packet.channel), 6)).map { packet.byte(2 + $0) & 0x7F }
        let group = packet.group
        switch packet.status {
        case 0x0:
            try endUnfinishedSystemExclusive(group: group)
            try append(.systemExclusive(data + [0xF7]), group: group, at: offset)
        case 0x1:
            try endUnfinishedSystemExclusive(group: group)
            systemExclusive[group] = (data, offset)
        case 0x2, 0x3:
            guard var pending = systemExclusive[group] else { return try log.add(.unfinishedClipSystemExclusive(offset: offset)) }
            pending.bytes += data
            if packet.status == 0x3 {
                systemExclusive[group] = nil
                try append(.systemExclusive(pending.bytes + [0xF7]), group: group, at: pending.offset)
            } else {
                systemExclusive[group] = pending
            }
        default:
            dropped[.reserved, default: 0] += 1
        }
    }

    /// A message started and never ended (another starts in its group): dropped, and said.
    private mutating func endUnfinishedSystemExclusive(group: UInt8) throws(SMFError) {
        guard let pending = systemExclusive.removeValue(forKey: group) else { return }
        try log.add(.unfinishedClipSystemExclusive(offset: pending.offset))
    }

    /// Tempo, time and key signature, and texts; the rest of Flex Data (metronome, chord names)
    /// says nothing a synthesizer plays.
    private mutating func takeFlexData(_ packet: UniversalMIDIPacket, at offset: Int) throws(SMFError) {
        let at = UInt32(clamping: tick)
        let data = packet.words.1
        switch (packet.byte3, packet.byte4) {
        case (0x00, 0x00):
            // Ten nanoseconds a quarter note; a MIDI file counts microseconds, in 24 bits.
            let microseconds = (UInt64(data) + 50) / 100
            guard microseconds > 0 else { return try log.add(.zeroTempo(offset: offset, track: 1)) }
            conductor.append((at, .meta(.tempo(microsecondsPerQuarterNote: UInt32(min(microseconds, 0xFF_FFFF))))))
        case (0x00, 0x01):
            let numerator = UInt8(data >> 24)
            guard numerator > 0 else { return }
            let thirtySeconds = UInt8(data >> 8 & 0xFF)
            conductor.append(
                (
                    at,
                    .meta(
                        .timeSignature(
                            numerator: numerator, denominatorPower: UInt8(data >> 16 & 0xFF), clocksPerMetronomeClick: 24,
                            thirtySecondNotesPerQuarter: thirtySeconds == 0 ? 8 : thirtySeconds))
                ))
        case (0x00, 0x05):
            if let signature = ClipKeySignature(word: data) {
                conductor.append((at, .meta(.keySignature(sharpsOrFlats: signature.sharpsOrFlats, isMinor: signature.isMinor))))
            }
        case (0x01, _), (0x02, _):
            if let text = texts.take(packet) { conductor.append((at, .meta(text))) }
        default:
            break
        }
    }

    /// Channel messages and SysEx before a Start of Clip: the clip started without one.
    private mutating func startIfNeeded() throws(SMFError) {
        guard !hasStarted else { return }
        hasStarted = true
        try log.add(.clipWithoutStart)
    }

    /// Appends to the group's track, made with the group as its port at its start.
    private mutating func append(_ message: MIDIMessage, group: UInt8, at offset: Int) throws(SMFError) {
        var track =
            groups.removeValue(forKey: group)
            ?? {
                var made = Track()
                made.append(.meta(.port(group)), atTick: 0)
                return made
            }()
        defer { groups[group] = track }
        let at = UInt32(tick)
        guard at - track.lengthInTicks <= Track.maximumDelta else { throw .clipTooLong(offset: offset) }
        if message.channelBytes == nil, track.payloads.count >= TrackEvent.maximumPayloadIndex - 1 {
            throw .tooManyEvents(offset: offset, track: Int(group) + 2)
        }
        track.append(message, atTick: at)
    }

    /// The conductor's track (the title first), then a track for each group in order, each ended
    /// where the clip ends.
    private func tracks() throws(SMFError) -> [Track] {
        let end = UInt32(clamping: tick)
        var first = Track()
        for (kind, text) in texts.headings { first.append(.meta(.text(kind, text)), atTick: 0) }
        let ordered = conductor.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
        for (at, message) in ordered.map(\.element) {
            guard at - first.lengthInTicks <= Track.maximumDelta else { throw .clipTooLong(offset: 0) }
            first.append(message, atTick: at)
        }
        var tracks = [first] + groups.sorted { $0.key < $1.key }.map(\.value)
        for index in tracks.indices {
            let last = max(end, tracks[index].lengthInTicks)
            guard last - tracks[index].lengthInTicks <= Track.maximumDelta else { throw .clipTooLong(offset: 0) }
            tracks[index].append(.meta(.endOfTrack), atTick: last)
        }
        return tracks
    }
}
