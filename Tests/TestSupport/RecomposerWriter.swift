/// Writes Recomposer files for tests (Come On Music's sequencer for the PC-98), byte by byte:
/// RCP v2 (`RCM-PC98V2.0(C)COME ON MUSIC`, commands of 4 bytes) or RCP v3, the G36 layout
/// (`COME ON MUSIC RECOMPOSER RCP3.0`, commands of 6). The header's fields at their places, its
/// rhythm definitions blank, its 8 user exclusives; then each track: its header and commands.
public struct RecomposerWriter {
    public enum Version: Sendable {
        case rcp, g36
    }

    /// One command of a track, one event of 4 or 6 bytes.
    public enum Command: Hashable, Sendable {
        /// A note (code below 0x80) or a command: its step time, first value (a note's gate
        /// time; wide in G36) and second (a note's velocity).
        case event(code: UInt8, step: Int, value1: Int, value2: UInt8)
        /// A comment (F6) or a continuation (F7), with the text bytes an event carries (2, or 5
        /// in G36).
        case text(code: UInt8, [UInt8])
        /// A same-measure command (FC) to the measure starting at the track's `event`-th command
        /// (from 0), numbered `measure`.
        case sameMeasure(measure: Int, event: Int)

        public static func note(_ key: UInt8, step: Int, gate: Int, velocity: UInt8 = 100) -> Command {
            .event(code: key, step: step, value1: gate, value2: velocity)
        }
        public static func controlChange(_ controller: UInt8, _ value: UInt8, step: Int = 0) -> Command {
            .event(code: 0xEB, step: step, value1: Int(controller), value2: value)
        }
        public static func program(_ program: UInt8, step: Int = 0) -> Command { .event(code: 0xEC, step: step, value1: Int(program), value2: 0) }
        /// E2: the bank's MSB and the program.
        public static func bankAndProgram(bank: UInt8, program: UInt8, step: Int = 0) -> Command {
            .event(code: 0xE2, step: step, value1: Int(program), value2: bank)
        }
        public static func pitchBend(_ value: UInt16, step: Int = 0) -> Command {
            .event(code: 0xEE, step: step, value1: Int(value & 0x7F), value2: UInt8(value >> 7))
        }
        public static func channelPressure(_ value: UInt8, step: Int = 0) -> Command { .event(code: 0xEA, step: step, value1: Int(value), value2: 0) }
        public static func notePressure(_ key: UInt8, _ value: UInt8, step: Int = 0) -> Command {
            .event(code: 0xED, step: step, value1: Int(key), value2: value)
        }
        /// One of the header's user exclusives (0–7), with its two values.
        public static func userExclusive(_ number: UInt8, _ value1: UInt8 = 0, _ value2: UInt8 = 0, step: Int = 0) -> Command {
            .event(code: 0x90 + number, step: step, value1: Int(value1), value2: value2)
        }
        /// E7: the header's tempo times `scale` / 64; `speed` above 0 for a gradual change.
        public static func tempo(scale: Int, speed: UInt8 = 0, step: Int = 0) -> Command {
            .event(code: 0xE7, step: step, value1: scale, value2: speed)
        }
        /// E6: 0 for none, 1–16 the first port's channels, 17–32 the second's.
        public static func channel(_ value: UInt8, step: Int = 0) -> Command { .event(code: 0xE6, step: step, value1: Int(value), value2: 0) }
        public static func rolandBase(_ high: UInt8, _ middle: UInt8) -> Command { .event(code: 0xDD, step: 0, value1: Int(high), value2: middle) }
        public static func rolandDevice(_ device: UInt8, _ model: UInt8) -> Command {
            .event(code: 0xDF, step: 0, value1: Int(device), value2: model)
        }
        public static func rolandParameter(_ low: UInt8, _ value: UInt8, step: Int = 0) -> Command {
            .event(code: 0xDE, step: step, value1: Int(low), value2: value)
        }
        /// F5: Recomposer's key byte (sharps, flats with bit 3, minor with bit 4), in the step field.
        public static func key(_ key: UInt8) -> Command { .event(code: 0xF5, step: Int(key), value1: 0, value2: 0) }
        public static let loopStart = Command.event(code: 0xF9, step: 0, value1: 0, value2: 0)
        /// F8: `count` passes, 0 for ever.
        public static func loopEnd(_ count: Int) -> Command { .event(code: 0xF8, step: count, value1: 0, value2: 0) }
        public static let measureEnd = Command.event(code: 0xFD, step: 0, value1: 0, value2: 0)
        public static let trackEnd = Command.event(code: 0xFE, step: 0, value1: 0, value2: 0)
    }

    public struct Track: Sendable {
        /// 0–15 the first port's channels, 16–31 the second's, 0xFF none.
        public var channel: UInt8
        /// Semitones, 7-bit signed; bit 7 marks a rhythm track.
        public var key: UInt8
        public var stepBias: Int8
        public var isMuted: Bool
        public var rhythmMode: UInt8
        public var name: [UInt8]
        public var commands: [Command]

        public init(
            channel: UInt8 = 0, key: UInt8 = 0, stepBias: Int8 = 0, isMuted: Bool = false, rhythmMode: UInt8 = 0, name: [UInt8] = [],
            _ commands: [Command]
        ) {
            self.channel = channel
            self.key = key
            self.stepBias = stepBias
            self.isMuted = isMuted
            self.rhythmMode = rhythmMode
            self.name = name
            self.commands = commands
        }
    }

    public var version: Version
    public var title: [UInt8] = []
    public var comments: [[UInt8]] = []
    public var ticksPerQuarterNote = 48
    public var beatsPerMinute = 120
    public var beatNumerator: UInt8 = 4
    public var beatDenominator: UInt8 = 4
    public var key: UInt8 = 0
    public var playBias: Int8 = 0
    public var cm6File: [UInt8] = []
    public var gsdFile: [UInt8] = []
    /// A G36 file's second Sound Canvas (port B).
    public var secondGSDFile: [UInt8] = []
    /// The 8 templates: the data without F0 (at most 24 bytes, padded with F7).
    public var userExclusives: [[UInt8]] = Array(repeating: [], count: 8)
    public var tracks: [Track] = []
    /// The track count the header declares; nil for the tracks written.
    public var declaredTrackCount: Int?

    public init(_ version: Version = .rcp, tracks: [Track] = []) {
        self.version = version
        self.tracks = tracks
    }

    /// Commands a comment takes: F6 with the first bytes, F7 with the rest (blank padded).
    public func comment(_ text: [UInt8]) -> [Command] { carried(code: 0xF6, text) }

    /// Commands a channel exclusive takes: 98 with its two values, F7 with the data (F7 padded).
    public func channelExclusive(_ data: [UInt8], _ value1: UInt8 = 0, _ value2: UInt8 = 0, step: Int = 0) -> [Command] {
        let perEvent = version == .rcp ? 2 : 5
        let padded = data + [UInt8](repeating: 0xF7, count: (perEvent - data.count % perEvent) % perEvent)
        return [.event(code: 0x98, step: step, value1: Int(value1), value2: value2)]
            + stride(from: 0, to: padded.count, by: perEvent).map { .text(code: 0xF7, Array(padded[$0..<$0 + perEvent])) }
    }

    private func carried(code: UInt8, _ text: [UInt8]) -> [Command] {
        let perEvent = version == .rcp ? 2 : 5
        let padded = text + [UInt8](repeating: 0x20, count: max(perEvent - text.count, (perEvent - text.count % perEvent) % perEvent))
        return stride(from: 0, to: padded.count, by: perEvent).enumerated().map { index, start in
            .text(code: index == 0 ? code : 0xF7, Array(padded[start..<start + perEvent]))
        }
    }

    public var bytes: [UInt8] {
        let rcp = version == .rcp
        var header = [UInt8](repeating: 0, count: rcp ? 0x586 : 0xC98)
        func put(_ bytes: [UInt8], at offset: Int) { header.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
        func padded(_ bytes: [UInt8], _ length: Int, with pad: UInt8 = 0x20) -> [UInt8] {
            Array(bytes.prefix(length)) + [UInt8](repeating: pad, count: max(0, length - bytes.count))
        }
        let count = declaredTrackCount ?? tracks.count
        if rcp {
            put(Array("RCM-PC98V2.0(C)COME ON MUSIC\r\n".utf8), at: 0)
            put(padded(title, 0x40), at: 0x20)
            for line in 0..<12 { put(padded(line < comments.count ? comments[line] : [], 28), at: 0x60 + line * 28) }
            put(
                [UInt8(ticksPerQuarterNote & 0xFF), UInt8(beatsPerMinute), beatNumerator, beatDenominator, key, UInt8(bitPattern: playBias)],
                at: 0x1C0)
            put(padded(cm6File, 16, with: 0), at: 0x1C6)
            put(padded(gsdFile, 16, with: 0), at: 0x1D6)
            put([UInt8(count), UInt8(ticksPerQuarterNote >> 8)], at: 0x1E6)
        } else {
            put(Array("COME ON MUSIC RECOMPOSER RCP3.0".utf8), at: 0)
            put(padded(title, 0x80), at: 0x20)
            for line in 0..<12 { put(padded(line < comments.count ? comments[line] : [], 30), at: 0xA0 + line * 30) }
            put(Self.little(count, 2) + Self.little(ticksPerQuarterNote, 2) + Self.little(beatsPerMinute, 2), at: 0x208)
            put([beatNumerator, beatDenominator, key, UInt8(bitPattern: playBias)], at: 0x20E)
            put(padded(gsdFile, 16, with: 0), at: 0x298)
            put(padded(secondGSDFile, 16, with: 0), at: 0x2A8)
            put(padded(cm6File, 16, with: 0), at: 0x2B8)
        }
        // Rhythm definitions: blank names.
        let rhythms = rcp ? (0x206, 32) : (0x318, 128)
        for index in 0..<rhythms.1 { put([UInt8](repeating: 0x20, count: 14), at: rhythms.0 + index * 16) }
        let exclusives = rcp ? 0x406 : 0xB18
        for (index, template) in userExclusives.prefix(8).enumerated() {
            put(padded([], 24) + padded(template, 24, with: 0xF7), at: exclusives + index * 48)
        }
        return header + tracks.enumerated().flatMap { trackBytes($1, number: UInt8(truncatingIfNeeded: $0 + 1)) }
    }

    private func trackBytes(_ track: Track, number: UInt8) -> [UInt8] {
        let rcp = version == .rcp
        let headerLength = rcp ? 0x2C : 0x2E
        let eventLength = rcp ? 4 : 6
        var body: [UInt8] = [
            number, track.rhythmMode, track.channel, track.key, UInt8(bitPattern: track.stepBias), track.isMuted ? 1 : 0,
        ]
        body += Array(track.name.prefix(36)) + [UInt8](repeating: 0x20, count: max(0, 36 - track.name.count))
        for command in track.commands {
            switch (command, rcp) {
            case (.event(let code, let step, let value1, let value2), true):
                precondition(step <= 0xFF && value1 <= 0xFF, "an RCP command's step time and first value are a byte each")
                body += [code, UInt8(step), UInt8(value1), value2]
            case (.event(let code, let step, let value1, let value2), false): body += [code, value2] + Self.little(step, 2) + Self.little(value1, 2)
            case (.text(let code, let text), true): body += [code, 0] + text.prefix(2)
            case (.text(let code, let text), false): body += [code] + text.prefix(5)
            case (.sameMeasure(let measure, let event), true):
                let offset = headerLength + event * eventLength
                body += [0xFC, UInt8(measure & 0xFF), UInt8(offset & 0xFC) | UInt8(measure >> 8 & 3), UInt8(offset >> 8)]
            case (.sameMeasure(let measure, let event), false): body += [0xFC, 0] + Self.little(measure, 2) + Self.little(0x30 + event, 2)
            }
        }
        let length = body.count + (rcp ? 2 : 4)
        // An RCP length's low two bits are its bits 16 and 17.
        return (rcp ? Self.little(length & 0xFFFC | length >> 16 & 3, 2) : Self.little(length, 4)) + body
    }

    private static func little(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
