/// Reads a MUS file (id Software's score format: Doom, Heretic, Hexen, Strife) into the
/// ``MIDIFile`` smfplay plays: one track at MUS's 140 ticks a second (70 ticks a quarter note at
/// 120 bpm), each event as the MIDI message it stands for. MUS channel 15 is the drums (MIDI
/// channel 10); channels 9 to 14 move up one to make room for it. A note's volume, when the event
/// gives none, is its channel's last (127 at first).
struct MUSReader {
    static let signature: [UInt8] = [0x4D, 0x55, 0x53, 0x1A]
    static let ticksPerQuarterNote: UInt16 = 70

    private let bytes: UnsafeBufferPointer<UInt8>
    private var log: WarningLog

    init(_ bytes: UnsafeBufferPointer<UInt8>, policy: SMFReadingPolicy) {
        self.bytes = bytes
        log = WarningLog(policy: policy)
    }

    static func isMUS(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    /// MUS controllers 1–9 as MIDI's: bank, modulation, volume, pan, expression, reverb, chorus,
    /// sustain pedal, soft pedal (0 is a program change).
    private static let controllers: [UInt8] = [0, 0, 1, 7, 10, 11, 91, 93, 64, 67]
    /// MUS system events 10–14: all sounds off, all notes off, mono, poly, reset all controllers.
    private static let systemControllers: [UInt8: UInt8] = [10: 120, 11: 123, 12: 126, 13: 127, 14: 121]

    mutating func read() throws(SMFError) -> SMFReader.Output {
        guard bytes.count >= 16 else { throw .truncatedHeader(offset: bytes.count) }
        let scoreLength = Int(bytes[4]) | Int(bytes[5]) << 8
        let scoreStart = Int(bytes[6]) | Int(bytes[7]) << 8
        guard scoreStart < bytes.count else { throw .musScoreOutsideFile(offset: scoreStart) }
        let scoreEnd = min(bytes.count, scoreStart + scoreLength)
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        var volumes = [UInt8](repeating: 127, count: 16)
        var tick: UInt64 = 0
        var offset = scoreStart
        var hasFinished = false
        scoreLoop: while offset < scoreEnd {
            let eventOffset = offset
            let descriptor = bytes[offset]
            offset += 1
            let type = descriptor >> 4 & 7
            let musChannel = descriptor & 0x0F
            let channel = musChannel == 15 ? 9 : musChannel >= 9 ? musChannel + 1 : musChannel
            // The bytes after the descriptor (a volume may follow a note, looked at below).
            let needed = type == 4 ? 2 : type <= 3 ? 1 : 0
            guard offset + needed <= scoreEnd else {
                try log.add(.musCutOff(offset: eventOffset))
                break
            }
            let at = UInt32(clamping: tick)
            switch type {
            case 0: track.append(.noteOff(channel: channel, note: bytes[offset] & 0x7F, velocity: 0), atTick: at)
            case 1:
                let note = bytes[offset]
                if note & 0x80 != 0 {
                    guard offset + 1 < scoreEnd else {
                        try log.add(.musCutOff(offset: eventOffset))
                        break scoreLoop
                    }
                    volumes[Int(musChannel)] = bytes[offset + 1] & 0x7F
                    offset += 1
                }
                track.append(.noteOn(channel: channel, note: note & 0x7F, velocity: volumes[Int(musChannel)]), atTick: at)
            case 2: track.append(.pitchBend(channel: channel, value: UInt16(bytes[offset]) << 6), atTick: at)
            case 3:
                if let controller = Self.systemControllers[bytes[offset]] {
                    track.append(.controlChange(channel: channel, controller: controller, value: 0), atTick: at)
                }
            case 4:
                let (number, value) = (bytes[offset], min(bytes[offset + 1], 127))
                if number == 0 {
                    track.append(.programChange(channel: channel, program: value), atTick: at)
                } else if Int(number) < Self.controllers.count {
                    track.append(.controlChange(channel: channel, controller: Self.controllers[Int(number)], value: value), atTick: at)
                }
            case 5: break
            case 6:
                hasFinished = true
                break scoreLoop
            default:
                try log.add(.musUnknownEvent(type: type, offset: eventOffset))
                break scoreLoop
            }
            offset += needed
            guard descriptor & 0x80 != 0 else { continue }
            // A delay follows: 7 bits a byte, the high bit set on all but the last.
            var delay: UInt64 = 0
            repeat {
                guard offset < scoreEnd else {
                    try log.add(.musCutOff(offset: offset))
                    break scoreLoop
                }
                delay = delay << 7 | UInt64(bytes[offset] & 0x7F)
                offset += 1
            } while bytes[offset - 1] & 0x80 != 0 && delay < 1 << 28
            tick += delay
            guard tick <= UInt64(track.lengthInTicks) + UInt64(Track.maximumDelta) else { throw .trackTooLong(offset: offset, track: 1) }
        }
        // A score that stopped at damage has said so.
        if !hasFinished, log.warnings.isEmpty, log.omittedCount == 0 { try log.add(.musWithoutEnd) }
        track.appendEnd(atTick: tick)
        return SMFReader.Output(
            file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: Self.ticksPerQuarterNote), tracks: [track], kind: .mus),
            warnings: log.warnings, omittedWarningCount: log.omittedCount)
    }
}
