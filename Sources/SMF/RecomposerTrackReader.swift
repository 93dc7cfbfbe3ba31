/// One Recomposer track played through as Recomposer plays it, into the events of one MIDI track
/// (and the tempo and key changes it makes, which belong to the whole song).
///
/// A track is a header (its channel, a key bias in semitones, a step bias in ticks, a mute flag,
/// a name) and commands of 4 bytes (RCP) or 6 (G36): a note (its key, step time, gate time and
/// velocity) or a command with two values. A command's step time is the ticks to the next one;
/// from F0 up (loops, measures, comments, key changes) commands take no time, nor does a command
/// no reader knows. A note sounds for its gate time; struck again while it sounds, it is tied: it
/// sounds on for the new gate time from there, without a new note on. Loops (F9 to F8) repeat
/// their count of passes, and nest; the same-measure command (FC) plays an earlier measure again
/// in its place, then goes on.
///
/// Everything a file can make it do is bounded: loops nest at most ``maximumLoopDepth`` deep, a
/// chain of same-measure commands follows at most ``maximumChainedMeasures`` of them, a song runs
/// at most its caller's budget of commands, a track at most ``maximumTick`` ticks.
struct RecomposerTrackReader {
    struct Event {
        var tick: UInt64
        /// Order among the track's events at one tick: note offs first, then as commanded.
        var order: Int
        var message: MIDIMessage
    }

    struct Output {
        var events: [Event] = []
        /// Tempo and key signature changes, for the song's first track.
        var conductor: [Event] = []
        /// The tick the track ends at, its last notes' ends included.
        var endTick: UInt64 = 0
        /// The endless loop the track stopped at (its passes played): from its start to its end,
        /// in ticks without the track's step bias.
        var endlessLoop: Range<Int64>?
        var warnings: [SMFWarning] = []
    }

    static let maximumLoopDepth = 16
    static let maximumChainedMeasures = 64
    /// Far enough from what a MIDI track can hold for the longest gate time after it.
    static let maximumTick = Int64(Track.maximumDelta) - 0x2_0000
    /// A loop whose passes would play longer than this many quarter notes is taken as endless,
    /// as rcm2smf does: a count of 99 or 255 on a whole song means for ever.
    static let longestLoopInQuarterNotes = 4000

    private struct Loop {
        /// The command after the loop start.
        var body: Int
        var startTick: Int64
        var passes = 0
        var isEndless = false
        /// The same-measure command's way back when the loop started inside a measure played again.
        var sameMeasureReturn: Int?
    }

    private struct SoundingNote {
        var channel: UInt8
        var note: UInt8
        var onTick: UInt64
        var end: Int64
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let header: RecomposerHeader
    private let ticksPerQuarterNote: Int
    private let beatsPerMinute: Int
    /// The track's first byte (its length field); the first byte after it, within the file.
    private let start: Int
    private let end: Int
    /// Whether the file ends before the track's declared end.
    private let isCutOff: Bool
    private let number: Int
    /// How many passes an endless loop plays before the track stops at its end.
    private let endlessPasses: Int

    private var output = Output()
    private var position: Int
    private var tick: Int64 = 0
    private var stepBias: Int64 = 0
    private var channel: UInt8?
    private var port: UInt8?
    private var transposition = 0
    private var sounding: [SoundingNote] = []
    private var loops: [Loop] = []
    /// Loop starts past the deepest nesting, passed over with their ends.
    private var ignoredLoopStarts = 0
    private var sameMeasureReturn: Int?
    /// The Roland device and model, and the base address, that the parameter command (DE)
    /// sends to: the MT-32's until the track's DF and DD commands say otherwise (as TiMidity++).
    private var rolandDevice: (UInt8, UInt8) = (0x10, 0x16)
    private var rolandBase: (UInt8, UInt8) = (0, 0)
    private var nextOrder = 1
    private var warnedKinds: Set<String> = []

    init(
        _ bytes: UnsafeBufferPointer<UInt8>, header: RecomposerHeader, ticksPerQuarterNote: Int, beatsPerMinute: Int, track: Range<Int>,
        isCutOff: Bool, number: Int, endlessPasses: Int = 1
    ) {
        self.bytes = bytes
        self.header = header
        self.ticksPerQuarterNote = ticksPerQuarterNote
        self.beatsPerMinute = beatsPerMinute
        start = track.lowerBound
        end = track.upperBound
        self.isCutOff = isCutOff
        self.number = number
        self.endlessPasses = endlessPasses
        position = start + header.version.trackHeaderLength
    }

    /// Plays the track through, spending one of `budget` a command.
    mutating func read(budget: inout Int) -> Output {
        // After the length: number, rhythm mode, channel, key, step bias, mute, name.
        let fields = start + header.version.trackLengthFieldSize
        let name = RecomposerHeader.trimmed(Array(bytes[fields + 6..<fields + 42]))
        if !name.isEmpty { emit(.meta(.text(.trackName, name)), at: 0) }
        // A muted track (bit 0 of its mode: rcm2smf; Valley Bell's rcp2mid mutes any value but 0,
        // TiMidity++ only 1) is not played: not even its tempo changes.
        guard bytes[fields + 5] & 1 == 0 else { return output }
        setChannel(Int(bytes[fields + 2]), at: 0)
        // Bit 7 marks a rhythm track, which no key bias moves, not even the song's; else the key
        // bias is 7-bit signed (0x74 is an octave down).
        let key = Int(bytes[fields + 3])
        transposition = key & 0x80 != 0 ? 0 : (key & 0x40 != 0 ? key - 0x80 : key) + header.playBias
        stepBias = Int64(Int8(bitPattern: bytes[fields + 4]))
        play(budget: &budget)
        for note in sounding { noteOff(note) }
        sounding = []
        output.endTick = max(output.endTick, placed(tick))
        return output
    }

    private mutating func play(budget: inout Int) {
        let length = header.version.eventLength
        while true {
            guard budget > 0, tick <= Self.maximumTick else {
                warn(.recomposerPlaysTooLong(track: number))
                return
            }
            budget -= 1
            guard position + length <= end else {
                warn(isCutOff ? .recomposerTrackCutOff(track: number, offset: position) : .recomposerTrackWithoutEnd(track: number))
                return
            }
            let command = RecomposerCommand(bytes, at: position, version: header.version)
            let offset = position
            position += length
            switch command.code {
            case 0x00...0x7F: note(command)
            case 0x90...0x97:
                if let channel,
                    let data = RecomposerExclusive.message(header.userExclusives[Int(command.code & 7)], values: command.values, channel: channel)
                {
                    emit(.systemExclusive(data), at: tick)
                }
            case 0x98:
                let data = continuation()
                if let channel, let message = RecomposerExclusive.message(data, values: command.values, channel: channel) {
                    emit(.systemExclusive(message), at: tick)
                }
            case 0x99:
                // An external command (a program to run on the PC-98), its text continued after.
                _ = continuation()
                warn(.recomposerCommandNotPlayed(command.code, track: number, offset: offset))
            case 0xDD: rolandBase = (command.values.0 & 0x7F, command.values.1 & 0x7F)
            case 0xDE:
                let template = [0x41, rolandDevice.0, rolandDevice.1, 0x12, 0x83, rolandBase.0, rolandBase.1, 0x80, 0x81, 0x84]
                if let channel, let message = RecomposerExclusive.message(template, values: command.values, channel: channel) {
                    emit(.systemExclusive(message), at: tick)
                }
            case 0xDF: rolandDevice = (command.values.0 & 0x7F, command.values.1 & 0x7F)
            case 0xE1, 0xE2:
                // Program change with a bank select: its LSB (E1) or MSB (E2).
                send(.controlChange(channel: 0, controller: command.code == 0xE1 ? 32 : 0, value: command.values.1 & 0x7F))
                send(.programChange(channel: 0, program: command.values.0 & 0x7F))
            case 0xE6: setChannel(Int(command.values.0) - 1, at: tick)
            case 0xE7: tempo(command, offset: offset)
            case 0xEA: send(.channelPressure(channel: 0, pressure: command.values.0 & 0x7F))
            case 0xEB: send(.controlChange(channel: 0, controller: command.values.0 & 0x7F, value: command.values.1 & 0x7F))
            case 0xEC: send(.programChange(channel: 0, program: command.values.0 & 0x7F))
            case 0xED: send(.notePressure(channel: 0, note: command.values.0 & 0x7F, pressure: command.values.1 & 0x7F))
            case 0xEE: send(.pitchBend(channel: 0, value: UInt16(command.values.1 & 0x7F) << 7 | UInt16(command.values.0 & 0x7F)))
            case 0xF5: keySignature(UInt8(truncatingIfNeeded: command.step))
            case 0xF6:
                // A comment: the command's text bytes, continued by F7 commands.
                let text = RecomposerHeader.trimmed(command.text + continuation())
                if !text.isEmpty { emit(.meta(.text(.text, text)), at: tick) }
            case 0xF8:
                guard loopEnd(count: command.step, offset: offset) else { return }
            case 0xF9:
                guard loops.count < Self.maximumLoopDepth else {
                    ignoredLoopStarts += 1
                    warn(.recomposerLoopsTooDeep(track: number, offset: offset))
                    break
                }
                loops.append(Loop(body: position, startTick: tick, sameMeasureReturn: sameMeasureReturn))
            case 0xFC: sameMeasure(at: offset)
            case 0xFD:
                // The end of a measure: of one played again, back to after its same-measure command.
                if let back = sameMeasureReturn {
                    position = back
                    sameMeasureReturn = nil
                }
            // The track's end; FF ends some files' tracks as well (rcm2smf).
            case 0xFE, 0xFF: return
            default:
                warn(.recomposerCommandNotPlayed(command.code, track: number, offset: offset))
                // A command smfplay knows keeps its step time; one no reader knows takes none
                // (TiMidity++ and rcm2smf; Valley Bell's rcp2mid keeps it).
                guard SMFWarning.recomposerCommandNames[command.code] != nil else { continue }
            }
            if command.code < 0xF0 { tick += Int64(command.step) }
        }
    }

    /// A note: struck with its velocity for its gate time, or tied to the same note sounding.
    private mutating func note(_ command: RecomposerCommand) {
        // Notes that have ended by now are not there to tie to.
        for note in sounding where note.end <= tick { noteOff(note) }
        sounding.removeAll { $0.end <= tick }
        let velocity = min(command.values.1, 127)
        guard let channel, command.gate > 0, velocity > 0 else { return }
        let key = Int(command.code) + transposition
        // Not played outside 0–127 (rcm2smf; rcp2mid and TiMidity++ wrap it round to another note).
        guard (0...127).contains(key) else {
            warn(.recomposerNoteOutOfRange(key, track: number))
            return
        }
        let end = tick + Int64(command.gate)
        if let index = sounding.firstIndex(where: { $0.channel == channel && Int($0.note) == key }) {
            sounding[index].end = end
            return
        }
        emit(.noteOn(channel: channel, note: UInt8(key), velocity: velocity), at: tick)
        sounding.append(SoundingNote(channel: channel, note: UInt8(key), onTick: placed(tick), end: end))
    }

    private mutating func noteOff(_ note: SoundingNote) {
        let at = placed(note.end)
        // Before what else happens at its tick, so that a note struck again there sounds; after
        // its own note on when a negative step bias puts both at tick 0.
        let order = at > note.onTick ? 0 : takeOrder()
        output.events.append(Event(tick: at, order: order, message: .noteOff(channel: note.channel, note: note.note, velocity: 0)))
        output.endTick = max(output.endTick, at)
    }

    /// A channel message on the track's channel (its own channel 0 replaced); none without one.
    private mutating func send(_ message: MIDIMessage) {
        guard let channel, let bytes = message.channelBytes else { return }
        emit(MIDIMessage(channelStatus: bytes.status | channel, data1: bytes.data1, data2: bytes.data2), at: tick)
    }

    /// The track header's channel byte, or the channel command's value less one: 0–15 the first
    /// port's channels, 16–31 the second's; anything else sends nowhere (0xFF in a header, 0 in the
    /// command are Recomposer's "off").
    private mutating func setChannel(_ value: Int, at tick: Int64) {
        guard (0..<32).contains(value) else {
            if value >= 32 && value < 0x80 { warn(.recomposerInvalidChannel(value, track: number)) }
            channel = nil
            return
        }
        channel = UInt8(value & 0x0F)
        let newPort = UInt8(value >> 4)
        if newPort != port {
            port = newPort
            emit(.meta(.port(newPort)), at: tick)
        }
    }

    /// Tempo change: the header's tempo times the command's first value over 64 (wide in G36, as
    /// rcm2smf reads it; rcp2mid and TiMidity++ take its low byte).
    private mutating func tempo(_ command: RecomposerCommand, offset: Int) {
        let scale = command.tempoScale
        guard scale > 0 else {
            warn(.recomposerZeroTempo(track: number, offset: offset))
            return
        }
        // A gradual change (the second value its speed) is made at once, as Valley Bell's rcp2mid does.
        if command.values.1 != 0 { warn(.recomposerGradualTempo(track: number, offset: offset)) }
        let microseconds = 60_000_000 * 64 / (beatsPerMinute * scale)
        let tempo = MetaEvent.tempo(microsecondsPerQuarterNote: UInt32(min(max(microseconds, 1), 0xFF_FFFF)))
        output.conductor.append(Event(tick: placed(tick), order: takeOrder(), message: .meta(tempo)))
    }

    private mutating func keySignature(_ key: UInt8) {
        output.conductor.append(Event(tick: placed(tick), order: takeOrder(), message: .meta(Self.keySignature(key))))
    }

    /// Recomposer's key byte: bits 0–2 the number of sharps, or of flats with bit 3; minor with bit 4.
    static func keySignature(_ key: UInt8) -> MetaEvent {
        let count = Int8(key & 0x07)
        return .keySignature(sharpsOrFlats: key & 0x08 != 0 ? -count : count, isMinor: key & 0x10 != 0)
    }

    /// Loop end: back to the loop's start until its count of passes is played; 0 for ever. False
    /// when the track stops here, at the end of an endless loop.
    private mutating func loopEnd(count: Int, offset: Int) -> Bool {
        if ignoredLoopStarts > 0 {
            ignoredLoopStarts -= 1
            return true
        }
        guard var loop = loops.popLast() else {
            warn(.recomposerLoopEndWithoutStart(track: number, offset: offset))
            return true
        }
        loop.passes += 1
        if loop.passes == 1 {
            loop.isEndless = count == 0
            let length = tick - loop.startTick
            if count > 2, length * Int64(count) > Int64(Self.longestLoopInQuarterNotes * ticksPerQuarterNote) {
                warn(.recomposerLongLoop(track: number, offset: offset, passes: count))
                loop.isEndless = true
            }
        }
        guard loop.passes < (loop.isEndless ? endlessPasses : count) else {
            guard loop.isEndless else { return true }
            output.endlessLoop = loop.startTick..<tick
            return false
        }
        position = loop.body
        sameMeasureReturn = loop.sameMeasureReturn
        loops.append(loop)
        return true
    }

    /// Same measure: plays the measure that the command points to (following a chain of them to
    /// the first that is no same-measure command), then comes back after it. Inside a measure
    /// played so, it ends that measure instead.
    private mutating func sameMeasure(at offset: Int) {
        if let back = sameMeasureReturn {
            position = back
            sameMeasureReturn = nil
            return
        }
        var from = offset
        for _ in 0..<Self.maximumChainedMeasures {
            let target = start + RecomposerCommand(bytes, at: from, version: header.version).sameMeasureOffset
            // An earlier command of the track, or nothing.
            guard target >= start + header.version.trackHeaderLength, target < from else { break }
            guard bytes[target] == 0xFC else {
                sameMeasureReturn = position
                position = target
                return
            }
            from = target
        }
        warn(.recomposerBadSameMeasure(track: number, offset: offset))
    }

    /// The data of the F7 commands that continue a comment or an exclusive, read past.
    private mutating func continuation() -> [UInt8] {
        var data: [UInt8] = []
        while position + header.version.eventLength <= end, bytes[position] == 0xF7 {
            data += RecomposerCommand(bytes, at: position, version: header.version).text
            position += header.version.eventLength
        }
        return data
    }

    /// Keeps a warning, but one of a kind said once a file when its kind was said already (a
    /// loop can repeat an unknown command a million times).
    private mutating func warn(_ warning: SMFWarning) {
        if let kind = Self.onceKind(warning) {
            guard warnedKinds.insert(kind).inserted else { return }
        }
        output.warnings.append(warning)
    }

    /// The kind of a warning said once a file, an unknown command's once for its code; nil for
    /// one said each time.
    static func onceKind(_ warning: SMFWarning) -> String? {
        switch warning {
        case .recomposerCommandNotPlayed(let code, _, _): "command \(code)"
        case .recomposerNoteOutOfRange: "note"
        case .recomposerGradualTempo: "gradual tempo"
        case .recomposerZeroTempo(_?, _): "zero tempo"
        case .recomposerLoopsTooDeep: "deep loops"
        case .recomposerLoopEndWithoutStart: "loop end"
        case .recomposerBadSameMeasure: "same measure"
        case .recomposerInvalidChannel: "channel"
        case .recomposerPlaysTooLong: "too long"
        default: nil
        }
    }

    /// `tick` moved by the step bias, at the song's start at the earliest.
    private func placed(_ tick: Int64) -> UInt64 {
        UInt64(max(0, tick + stepBias))
    }

    private mutating func emit(_ message: MIDIMessage, at tick: Int64) {
        output.events.append(Event(tick: placed(tick), order: takeOrder(), message: message))
        output.endTick = max(output.endTick, placed(tick))
    }

    private mutating func takeOrder() -> Int {
        defer { nextOrder += 1 }
        return nextOrder
    }
}
