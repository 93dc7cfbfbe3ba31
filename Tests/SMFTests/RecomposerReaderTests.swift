import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import SMF

/// Recomposer songs (RCP v2 and G36), written command by command, read into the MIDI they stand
/// for: each command's translation, the loops and same-measure commands played through, and what
/// a damaged or hostile file does.
struct RecomposerReaderTests {
    typealias Command = RecomposerWriter.Command
    typealias RecomposerTrack = RecomposerWriter.Track

    static func read(_ writer: RecomposerWriter, policy: SMFReadingPolicy = .strict) throws -> SMFReader.Output {
        try SMFReader(policy: policy).read(writer.bytes)
    }

    /// A track's events as (tick, message).
    static func timed(_ track: SMF.Track) -> [(tick: UInt32, message: MIDIMessage)] {
        track.events.map { ($0.tick, track.message(of: $0)) }
    }

    /// Notes and other channel messages of a track (no meta events).
    static func channelMessages(_ track: SMF.Track) -> [(tick: UInt32, message: MIDIMessage)] {
        timed(track).filter { $0.message.channel != nil }
    }

    static func song(_ version: RecomposerWriter.Version = .rcp, _ tracks: [RecomposerTrack]) -> RecomposerWriter {
        RecomposerWriter(version, tracks: tracks)
    }

    @Test("the header: title kept as bytes, comment lines as text, tempo, time and key signature, ticks per quarter note; RCP and G36 alike")
    func header() throws {
        var files: [MIDIFile] = []
        for version in [RecomposerWriter.Version.rcp, .g36] {
            var writer = RecomposerWriter(version)
            // テスト in Shift-JIS, then ASCII.
            writer.title = [0x83, 0x65, 0x83, 0x58, 0x83, 0x67] + Array(" Song".utf8)
            writer.comments = [Array("line one".utf8), [], Array("line three".utf8)]
            writer.ticksPerQuarterNote = 480
            writer.beatsPerMinute = 150
            (writer.beatNumerator, writer.beatDenominator) = (3, 4)
            writer.key = 0x1A
            writer.tracks = [RecomposerTrack(name: Array("Piano".utf8), [.note(60, step: 240, gate: 120), .trackEnd])]
            let output = try Self.read(writer)
            let file = output.file
            #expect(file.kind == (version == .rcp ? .recomposerRCP : .recomposerG36))
            #expect(file.format == .multipleTracksSynchronous && file.timebase == .musical(ticksPerQuarterNote: 480) && file.tracks.count == 2)
            #expect(
                Self.timed(file.tracks[0]).map(\.message) == [
                    .meta(.text(.trackName, writer.title)), .meta(.text(.text, Array("line one".utf8))), .meta(.text(.text, [])),
                    .meta(.text(.text, Array("line three".utf8))), .meta(.tempo(microsecondsPerQuarterNote: 400_000)),
                    .meta(.timeSignature(numerator: 3, denominatorPower: 2, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)),
                    .meta(.keySignature(sharpsOrFlats: -2, isMinor: true)), .meta(.endOfTrack),
                ])
            #expect(Self.timed(file.tracks[0]).last?.tick == 240)
            #expect(
                Self.timed(file.tracks[1]).map(\.tick) == [0, 0, 0, 120, 240]
                    && Self.timed(file.tracks[1]).map(\.message) == [
                        .meta(.text(.trackName, Array("Piano".utf8))), .meta(.port(0)), .noteOn(channel: 0, note: 60, velocity: 100),
                        .noteOff(channel: 0, note: 60, velocity: 0), .meta(.endOfTrack),
                    ])
            #expect(abs(Song(file: file).duration - 0.2) < 1e-9)
            #expect(file.titleText(decoding: TextDecoding(detectingIn: file)) == "テスト Song")
            files.append(file)
        }
        #expect(files[0].tracks == files[1].tracks)
    }

    @Test(
        "notes: a note off after the gate time; a note struck again while it sounds is tied (no note on, the new gate from there); gate or velocity 0 is no note"
    )
    func notes() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            let commands: [Command] = [
                .note(60, step: 24, gate: 12), .note(62, step: 24, gate: 48, velocity: 90),
                .note(62, step: 24, gate: 12, velocity: 80), // tied to the 62 sounding: ends at 60
                .note(64, step: 24, gate: 24), .note(64, step: 24, gate: 10), // the first has ended: struck again
                .note(65, step: 0, gate: 0), .note(67, step: 0, gate: 20, velocity: 0), .note(67, step: 12, gate: 100), .trackEnd,
            ]
            let track = try Self.read(Self.song(version, [RecomposerTrack(commands)])).file.tracks[1]
            let timed = Self.timed(track)
            #expect(timed.map(\.tick) == [0, 0, 12, 24, 60, 72, 96, 96, 106, 120, 220, 220])
            #expect(
                timed.map(\.message) == [
                    .meta(.port(0)), .noteOn(channel: 0, note: 60, velocity: 100), .noteOff(channel: 0, note: 60, velocity: 0),
                    .noteOn(channel: 0, note: 62, velocity: 90), .noteOff(channel: 0, note: 62, velocity: 0),
                    .noteOn(channel: 0, note: 64, velocity: 100), .noteOff(channel: 0, note: 64, velocity: 0),
                    .noteOn(channel: 0, note: 64, velocity: 100), .noteOff(channel: 0, note: 64, velocity: 0),
                    .noteOn(channel: 0, note: 67, velocity: 100), .noteOff(channel: 0, note: 67, velocity: 0), .meta(.endOfTrack),
                ])
        }
    }

    @Test("a G36 file's wide fields: step and gate times past 255")
    func wideFields() throws {
        let file = try Self.read(Self.song(.g36, [RecomposerTrack([.note(60, step: 1000, gate: 700), .note(62, step: 300, gate: 300), .trackEnd])]))
            .file
        #expect(Self.channelMessages(file.tracks[1]).map(\.tick) == [0, 700, 1000, 1300])
    }

    @Test("channels: 0–15 the first port, 16–31 the second (a port meta event); the channel command moves a track, 0 silences it")
    func channelsAndPorts() throws {
        let commands: [Command] = [
            .note(60, step: 10, gate: 5), .channel(6), .note(61, step: 10, gate: 5), .channel(0), .note(62, step: 10, gate: 5),
            .controlChange(7, 100), .channel(17), .note(63, step: 10, gate: 5), .trackEnd,
        ]
        let track = try Self.read(Self.song(.rcp, [RecomposerTrack(channel: 0x12, commands)])).file.tracks[1]
        let timed = Self.timed(track)
        #expect(timed.map(\.tick) == [0, 0, 5, 10, 10, 15, 30, 30, 35, 40])
        #expect(
            timed.map(\.message) == [
                .meta(.port(1)), .noteOn(channel: 2, note: 60, velocity: 100), .noteOff(channel: 2, note: 60, velocity: 0), .meta(.port(0)),
                .noteOn(channel: 5, note: 61, velocity: 100), .noteOff(channel: 5, note: 61, velocity: 0), .meta(.port(1)),
                .noteOn(channel: 0, note: 63, velocity: 100), .noteOff(channel: 0, note: 63, velocity: 0), .meta(.endOfTrack),
            ])
        let beyond = try Self.read(Self.song(.rcp, [RecomposerTrack([.channel(40), .note(60, step: 10, gate: 5), .trackEnd])]), policy: .lenient)
        #expect(beyond.warnings == [.recomposerInvalidChannel(39, track: 1)])
        #expect(Self.channelMessages(beyond.file.tracks[1]).isEmpty)
    }

    @Test("control change, program change, bank and program (E2, and E1's LSB), pitch bend, channel and key pressure, on the track's channel")
    func channelCommands() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            let commands: [Command] = [
                .controlChange(7, 100, step: 1), .program(19, step: 1), .bankAndProgram(bank: 8, program: 25, step: 1),
                .event(code: 0xE1, step: 1, value1: 4, value2: 3), .pitchBend(0x2000, step: 1), .pitchBend(0x3FFF, step: 1),
                .channelPressure(50, step: 1), .notePressure(60, 70, step: 1), .trackEnd,
            ]
            let track = try Self.read(Self.song(version, [RecomposerTrack(channel: 3, commands)])).file.tracks[1]
            #expect(
                Self.channelMessages(track).map(\.message) == [
                    .controlChange(channel: 3, controller: 7, value: 100), .programChange(channel: 3, program: 19),
                    .controlChange(channel: 3, controller: 0, value: 8), .programChange(channel: 3, program: 25),
                    .controlChange(channel: 3, controller: 32, value: 3), .programChange(channel: 3, program: 4),
                    .pitchBend(channel: 3, value: 8192), .pitchBend(channel: 3, value: 16383), .channelPressure(channel: 3, pressure: 50),
                    .notePressure(channel: 3, note: 60, pressure: 70),
                ])
            #expect(Self.channelMessages(track).map(\.tick) == [0, 1, 2, 2, 3, 3, 4, 5, 6, 7])
        }
    }

    @Test(
        "system exclusives: user exclusives from the header's templates and channel exclusives, values, channel and Roland checksum filled in; Roland device, base and parameter commands"
    )
    func exclusives() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            var writer = RecomposerWriter(version)
            writer.userExclusives[0] = [0x41, 0x10, 0x42, 0x12, 0x83, 0x40, 0x00, 0x7F, 0x00, 0x84]
            writer.userExclusives[5] = [0x41, 0x10, 0x42, 0x12, 0x83, 0x40, 0x82, 0x80, 0x81, 0x84]
            writer.tracks = [
                RecomposerTrack(
                    channel: 0x13,
                    [.userExclusive(0), .userExclusive(5, 0x19, 0x7F), .userExclusive(7)]
                        + writer.channelExclusive([0x41, 0x10, 0x45, 0x12, 0x83, 0x10, 0x00, 0x80, 0x81, 0x84], 0x20, 0x30, step: 5)
                        + [
                            .rolandParameter(0x05, 0x50), .rolandDevice(0x10, 0x42), .rolandBase(0x40, 0x01), .rolandParameter(0x30, 0x04),
                            .trackEnd,
                        ])
            ]
            let track = try Self.read(writer).file.tracks[1]
            let exclusives = Self.timed(track).filter { if case .systemExclusive = $0.message { true } else { false } }
            #expect(
                exclusives.map(\.message) == [
                    .systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]),
                    .systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x03, 0x19, 0x7F, 0x25, 0xF7]),
                    .systemExclusive([0x41, 0x10, 0x45, 0x12, 0x10, 0x00, 0x20, 0x30, 0x20, 0xF7]),
                    // Before the device and base commands: the MT-32's device and model, base 0.
                    .systemExclusive([0x41, 0x10, 0x16, 0x12, 0x00, 0x00, 0x05, 0x50, 0x2B, 0xF7]),
                    .systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x30, 0x04, 0x0B, 0xF7]),
                ])
            // The channel exclusive's step time counts; its continuations take none.
            #expect(exclusives.map(\.tick) == [0, 0, 0, 5, 5])
        }
    }

    @Test("tempo changes relative to the header's tempo (scale/64), a gradual one made at once, key changes: all in the first track")
    func tempoAndKey() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            let commands: [Command] = [
                .tempo(scale: 128, step: 48), .tempo(scale: 32, step: 48), .tempo(scale: 64, speed: 10, step: 48), .key(0x03), .tempo(scale: 0),
                .note(60, step: 48, gate: 48), .trackEnd,
            ]
            let output = try Self.read(Self.song(version, [RecomposerTrack(commands)]), policy: .lenient)
            #expect(
                output.warnings
                    == [.recomposerGradualTempo(track: 1, offset: 0), .recomposerZeroTempo(track: 1, offset: 0)].map { Self.placed($0, version) })
            let conductor = Self.timed(output.file.tracks[0])
            #expect(conductor.map(\.tick) == [0, 0, 0, 0, 48, 96, 144, 192])
            #expect(
                conductor.map(\.message) == [
                    .meta(.tempo(microsecondsPerQuarterNote: 500_000)),
                    .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)),
                    .meta(.keySignature(sharpsOrFlats: 0, isMinor: false)), .meta(.tempo(microsecondsPerQuarterNote: 250_000)),
                    .meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), .meta(.tempo(microsecondsPerQuarterNote: 500_000)),
                    .meta(.keySignature(sharpsOrFlats: 3, isMinor: false)), .meta(.endOfTrack),
                ])
            #expect(abs(Song(file: output.file).duration - (0.25 + 1 + 0.5 + 0.5)) < 1e-9)
        }
    }

    /// A warning with the offsets of `version`'s file: the commands counted from the first track's.
    static func placed(_ warning: SMFWarning, _ version: RecomposerWriter.Version) -> SMFWarning {
        let first = version == .rcp ? 0x586 + 0x2C : 0xC98 + 0x2E
        let length = version == .rcp ? 4 : 6
        switch warning {
        case .recomposerGradualTempo(let track, _): return .recomposerGradualTempo(track: track, offset: first + 2 * length)
        case .recomposerZeroTempo(let track?, _): return .recomposerZeroTempo(track: track, offset: first + 4 * length)
        default: return warning
        }
    }

    @Test(
        "key biases: the track's (7-bit signed) and the song's play bias move notes, not a rhythm track's; step biases move a track's events, not before the start"
    )
    func biases() throws {
        var writer = RecomposerWriter(.rcp)
        writer.playBias = -12
        writer.tracks = [
            RecomposerTrack(key: 0x05, [.note(60, step: 10, gate: 5), .trackEnd]),
            RecomposerTrack(key: 0x74, [.note(60, step: 10, gate: 5), .trackEnd]),
            RecomposerTrack(channel: 9, key: 0x80, rhythmMode: 0x80, [.note(36, step: 10, gate: 5), .trackEnd]),
            RecomposerTrack(stepBias: 5, [.note(60, step: 10, gate: 5), .trackEnd]),
            RecomposerTrack(stepBias: -3, [.note(60, step: 10, gate: 5), .note(62, step: 10, gate: 5), .trackEnd]),
            RecomposerTrack(key: 0x3F, [.note(100, step: 10, gate: 5), .note(60, step: 10, gate: 5), .trackEnd]),
        ]
        let output = try Self.read(writer, policy: .lenient)
        let tracks = output.file.tracks
        #expect(output.warnings == [.recomposerNoteOutOfRange(151, track: 6)])
        #expect(Self.channelMessages(tracks[1]).map(\.message).first == .noteOn(channel: 0, note: 53, velocity: 100))
        #expect(Self.channelMessages(tracks[2]).map(\.message).first == .noteOn(channel: 0, note: 36, velocity: 100))
        #expect(Self.channelMessages(tracks[3]).map(\.message).first == .noteOn(channel: 9, note: 36, velocity: 100))
        #expect(Self.channelMessages(tracks[4]).map(\.tick) == [5, 10])
        #expect(Self.channelMessages(tracks[5]).map(\.tick) == [0, 2, 7, 12])
        #expect(Self.channelMessages(tracks[5]).map(\.message).first == .noteOn(channel: 0, note: 48, velocity: 100))
        #expect(
            Self.channelMessages(tracks[6]).map(\.message) == [
                .noteOn(channel: 0, note: 111, velocity: 100), .noteOff(channel: 0, note: 111, velocity: 0),
            ])
    }

    @Test("a muted track plays nothing, not even its tempo changes; a track on no channel sends nothing, but its tempo changes count")
    func mutedAndSilent() throws {
        let output = try Self.read(
            Self.song(
                .rcp,
                [
                    RecomposerTrack(isMuted: true, name: Array("muted".utf8), [.tempo(scale: 32), .note(60, step: 10, gate: 5), .trackEnd]),
                    RecomposerTrack(channel: 0xFF, [.tempo(scale: 128), .note(60, step: 10, gate: 5), .controlChange(7, 1), .trackEnd]),
                ]))
        let tracks = output.file.tracks
        #expect(Self.timed(tracks[1]).map(\.message) == [.meta(.text(.trackName, Array("muted".utf8))), .meta(.endOfTrack)])
        #expect(Self.timed(tracks[2]).map(\.message) == [.meta(.endOfTrack)])
        #expect(
            Self.timed(tracks[0]).filter { if case .meta(.tempo) = $0.message { true } else { false } }.map(\.message).last
                == .meta(.tempo(microsecondsPerQuarterNote: 250_000)))
    }

    @Test("loops with a count play that many passes, nested too; a comment is a text event that takes no time")
    func finiteLoops() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            let writer = Self.song(version, [])
            var track = RecomposerTrack([.loopStart, .loopStart, .note(60, step: 6, gate: 3), .loopEnd(2), .note(62, step: 6, gate: 3), .loopEnd(2)])
            track.commands += writer.comment(Array("after the loops".utf8)) + [.note(64, step: 6, gate: 3), .trackEnd]
            let file = try Self.read(Self.song(version, [track])).file
            let ons = Self.channelMessages(file.tracks[1]).filter { if case .noteOn = $0.message { true } else { false } }
            #expect(ons.map(\.tick) == [0, 6, 12, 18, 24, 30, 36])
            #expect(ons.map { $0.message.noteKey } == [60, 60, 62, 60, 60, 62, 64])
            #expect(Self.timed(file.tracks[1]).contains { $0.tick == 36 && $0.message == .meta(.text(.text, Array("after the loops".utf8))) })
        }
    }

    /// Every track: a quarter note's intro, then an endless loop of `loop` ticks of notes a quarter apart.
    static func loopingTrack(intro: Int = 48, loop: Int, key: UInt8 = 60) -> RecomposerTrack {
        var commands: [Command] = intro > 0 ? [.note(key, step: intro, gate: 24)] : []
        commands += [.loopStart] + Array(repeating: Command.note(key + 2, step: 48, gate: 24), count: loop / 48) + [.loopEnd(0)]
        return RecomposerTrack(commands + [.note(key + 4, step: 48, gate: 24), .trackEnd])
    }

    @Test("an endless loop plays once, marked with loopStart and loopEnd markers that SongLoop finds; what follows it is never reached")
    func endlessLoop() throws {
        let file = try Self.read(Self.song(.rcp, [Self.loopingTrack(loop: 96), Self.loopingTrack(loop: 96, key: 40)])).file
        #expect(Self.timed(file.tracks[0]).filter { if case .meta(.text(.marker, _)) = $0.message { true } else { false } }.map(\.tick) == [48, 144])
        let song = Song(file: file)
        #expect(SongLoop.find(in: song).loop == SongLoop(startTick: 48, endTick: 144, marking: .markers))
        #expect(Self.channelMessages(file.tracks[1]).filter { if case .noteOn = $0.message { true } else { false } }.map(\.tick) == [0, 48, 96])
        #expect(!Self.channelMessages(file.tracks[1]).contains { $0.message.noteKey == 64 })
    }

    @Test(
        "endless loops of different lengths from one start: the shorter played as often as fits the longest, and the whole marked; loops that do not fit: each twice, with a warning"
    )
    func loopsOfDifferentLengths() throws {
        let fitting = try Self.read(Self.song(.rcp, [Self.loopingTrack(intro: 0, loop: 192), Self.loopingTrack(intro: 0, loop: 48, key: 40)])).file
        #expect(SongLoop.find(in: Song(file: fitting)).loop == SongLoop(startTick: 0, endTick: 192, marking: .markers))
        #expect(
            Self.channelMessages(fitting.tracks[2]).filter { if case .noteOn = $0.message { true } else { false } }.map(\.tick) == [0, 48, 96, 144])
        let different = try Self.read(
            Self.song(.rcp, [Self.loopingTrack(intro: 0, loop: 96), Self.loopingTrack(intro: 48, loop: 96, key: 40)]), policy: .lenient)
        #expect(different.warnings == [.recomposerLoopsDisagree])
        #expect(SongLoop.find(in: Song(file: different.file)).isUnmarked)
        #expect(
            Self.channelMessages(different.file.tracks[1]).filter { if case .noteOn = $0.message { true } else { false } }.map(\.tick) == [
                0, 48, 96, 144,
            ])
        #expect(
            Self.channelMessages(different.file.tracks[2]).filter { if case .noteOn = $0.message { true } else { false } }.map(\.tick) == [
                0, 48, 96, 144, 192,
            ])
        #expect(throws: SMFError.rejected(.recomposerLoopsDisagree)) {
            try Self.read(Self.song(.rcp, [Self.loopingTrack(intro: 0, loop: 96), Self.loopingTrack(intro: 48, loop: 96, key: 40)]))
        }
    }

    @Test("the same-measure command plays an earlier measure in its place, following a chain of them; back after that measure's end")
    func sameMeasure() throws {
        for version in [RecomposerWriter.Version.rcp, .g36] {
            let commands: [Command] = [
                .note(60, step: 48, gate: 24), .measureEnd, .note(62, step: 48, gate: 24), .measureEnd, .sameMeasure(measure: 0, event: 0),
                .sameMeasure(measure: 2, event: 4), .note(64, step: 48, gate: 24), .trackEnd,
            ]
            let track = try Self.read(Self.song(version, [RecomposerTrack(commands)])).file.tracks[1]
            let ons = Self.channelMessages(track).filter { if case .noteOn = $0.message { true } else { false } }
            #expect(ons.map(\.tick) == [0, 48, 96, 144, 192])
            #expect(ons.map { $0.message.noteKey } == [60, 62, 60, 60, 64])
        }
    }

    @Test(
        "damage: a file cut inside a track keeps what came before; a header cut off is refused; unknown commands are passed over, said once a code; fewer tracks than declared"
    )
    func damaged() throws {
        let whole = Self.song(
            .rcp, [RecomposerTrack([.note(60, step: 10, gate: 5), .note(62, step: 10, gate: 5), .note(64, step: 10, gate: 5), .trackEnd])])
        let cut = try SMFReader().read(Array(whole.bytes.prefix(0x586 + 0x2C + 4 * 2 + 2)))
        #expect(cut.warnings == [.recomposerTrackCutOff(track: 1, offset: 0x586 + 0x2C + 8)])
        #expect(Self.channelMessages(cut.file.tracks[1]).map { $0.message.noteKey } == [60, 60, 62, 62])
        #expect(throws: SMFError.recomposerTruncatedHeader(length: 0x500, needed: 0x586)) { try SMFReader().read(Array(whole.bytes.prefix(0x500))) }
        #expect(throws: SMFError.recomposerTruncatedHeader(length: 0xC00, needed: 0xC98)) {
            try SMFReader().read(Array(Self.song(.g36, []).bytes.prefix(0xC00)))
        }
        let unknown = Self.song(
            .rcp,
            [
                RecomposerTrack([
                    .event(code: 0xE3, step: 10, value1: 0, value2: 0), .event(code: 0xC1, step: 10, value1: 1, value2: 2),
                    .event(code: 0xE3, step: 10, value1: 0, value2: 0), .note(60, step: 10, gate: 5),
                ])
            ])
        var declared = unknown
        declared.declaredTrackCount = 3
        let output = try SMFReader().read(declared.bytes)
        let first = 0x586 + 0x2C
        #expect(
            output.warnings == [
                .recomposerTrackCountMismatch(declared: 3, found: 1), .recomposerCommandNotPlayed(0xE3, track: 1, offset: first),
                .recomposerCommandNotPlayed(0xC1, track: 1, offset: first + 4), .recomposerTrackWithoutEnd(track: 1),
            ])
        // A command known and not played keeps its step time; an unknown one takes none.
        #expect(Self.channelMessages(output.file.tracks[1]).first?.tick == 10)
        #expect(
            output.warnings.map(\.description)[1] == "unknown Recomposer command 0xE3 in track 1 at byte 1458; passed over, as are the others like it"
        )
        #expect(
            output.warnings.map(\.description)[2]
                == "Recomposer command 0xC1 (DX parameter) in track 1 at byte 1462 is not played; passed over, as are the others like it")
        #expect(throws: SMFError.rejected(.recomposerTrackCountMismatch(declared: 3, found: 1))) {
            try SMFReader(policy: .strict).read(declared.bytes)
        }
    }

    @Test(
        "a hostile file stays bounded: loops nested past the limit with huge counts, a loop too long to be meant, same-measure commands that point nowhere, a loop end alone"
    )
    func hostile() throws {
        // 17 loops nested, 255 passes each, around a note that takes no time (so no loop is too
        // long to be meant): 255^16 passes, cut at the command budget.
        let nested = RecomposerTrack(
            Array(repeating: .loopStart, count: 17) + [.note(60, step: 0, gate: 1)] + Array(repeating: .loopEnd(255), count: 17) + [.trackEnd])
        let clock = ContinuousClock()
        let start = clock.now
        let deep = try SMFReader().read(Self.song(.rcp, [nested]).bytes)
        #expect(clock.now - start < .seconds(60))
        #expect(deep.warnings == [.recomposerLoopsTooDeep(track: 1, offset: 0x586 + 0x2C + 16 * 4), .recomposerPlaysTooLong(track: 1)])
        // The note struck once, tied on at each pass.
        #expect(
            Self.channelMessages(deep.file.tracks[1]).map(\.message) == [
                .noteOn(channel: 0, note: 60, velocity: 100), .noteOff(channel: 0, note: 60, velocity: 0),
            ])
        // 20 quarter notes 255 times: longer than 4000 quarter notes, so taken as for ever. Loops
        // within loops that take time end so too.
        let long = try SMFReader().read(
            Self.song(.g36, [RecomposerTrack([.loopStart, .note(60, step: 960, gate: 24), .loopEnd(255), .trackEnd])]).bytes)
        #expect(long.warnings == [.recomposerLongLoop(track: 1, offset: 0xC98 + 0x2E + 12, passes: 255)])
        #expect(SongLoop.find(in: Song(file: long.file)).loop == SongLoop(startTick: 0, endTick: 960, marking: .markers))
        let timed = RecomposerTrack(
            Array(repeating: .loopStart, count: 16) + [.note(60, step: 1, gate: 1)] + Array(repeating: .loopEnd(255), count: 16) + [.trackEnd])
        let bomb = try SMFReader().read(Self.song(.rcp, [timed]).bytes)
        #expect(bomb.warnings == [.recomposerLongLoop(track: 1, offset: 0x586 + 0x2C + 19 * 4, passes: 255)])
        #expect(bomb.file.tracks[1].lengthInTicks == 255 * 255)
        // Same measure: to itself, forward, before the track's commands; a loop end with no start.
        let jumps = try SMFReader().read(
            Self.song(
                .rcp,
                [
                    RecomposerTrack([
                        .sameMeasure(measure: 0, event: 0), .sameMeasure(measure: 5, event: 5), .event(code: 0xFC, step: 0, value1: 0, value2: 0),
                        .loopEnd(3), .note(60, step: 10, gate: 5), .trackEnd,
                    ])
                ]
            ).bytes)
        #expect(
            jumps.warnings == [
                .recomposerBadSameMeasure(track: 1, offset: 0x586 + 0x2C), .recomposerLoopEndWithoutStart(track: 1, offset: 0x586 + 0x2C + 12),
            ])
        #expect(Self.channelMessages(jumps.file.tracks[1]).count == 2)
        // A chain of same-measure commands, each to the one before, the first to the first measure:
        // followed to it 64 long, no longer.
        let chain = (0..<200).map { Command.sameMeasure(measure: 0, event: $0 == 0 ? 0 : $0 + 1) }
        let chained = try SMFReader().read(
            Self.song(.rcp, [RecomposerTrack([.note(60, step: 10, gate: 5), .measureEnd] + chain + [.trackEnd])]).bytes)
        #expect(chained.warnings == [.recomposerBadSameMeasure(track: 1, offset: 0x586 + 0x2C + 66 * 4)])
        #expect(Self.channelMessages(chained.file.tracks[1]).filter { if case .noteOn = $0.message { true } else { false } }.count == 65)
    }

    @Test("the setup files a song names: a warning for each, saying whether it lies beside the song (in any case)")
    func setupFiles() throws {
        var writer = RecomposerWriter(.rcp)
        writer.cm6File = Array("SONG.CM6".utf8)
        writer.gsdFile = Array("SONG.GSD".utf8)
        writer.tracks = [RecomposerTrack([.note(60, step: 10, gate: 5), .trackEnd])]
        let bytes = try SMFReader().read(writer.bytes)
        #expect(
            bytes.warnings == [
                .recomposerSetupFileNotRead(name: "SONG.CM6", device: "MT-32/CM-64", isBeside: nil),
                .recomposerSetupFileNotRead(name: "SONG.GSD", device: "Sound Canvas", isBeside: nil),
            ])
        let folder = try TemporaryFolder()
        try folder.create("song.rcp", writer.bytes)
        try folder.create("song.gsd", [0])
        let file = try SMFReader().read(path: folder.filePath("song.rcp"))
        #expect(
            file.warnings == [
                .recomposerSetupFileNotRead(name: "SONG.CM6", device: "MT-32/CM-64", isBeside: false),
                .recomposerSetupFileNotRead(name: "SONG.GSD", device: "Sound Canvas", isBeside: true),
            ])
        #expect(
            file.warnings.map(\.description) == [
                "the song asks for the MT-32/CM-64 setup file 'SONG.CM6', which is not beside it (smfplay does not read setup files yet); the song plays without it",
                "the song asks for the Sound Canvas setup file 'SONG.GSD', which lies beside it; smfplay does not read setup files yet, so the song plays without it",
            ])
        var g36 = writer
        g36.version = .g36
        g36.gsdFile = []
        g36.secondGSDFile = Array("B.GSD".utf8)
        #expect(
            try SMFReader().read(g36.bytes).warnings == [
                .recomposerSetupFileNotRead(name: "B.GSD", device: "Sound Canvas (port B)", isBeside: nil),
                .recomposerSetupFileNotRead(name: "SONG.CM6", device: "MT-32/CM-64", isBeside: nil),
            ])
    }

    @Test("told by its first bytes, twelve of them enough: RCP and G36 headers, not a near miss")
    func signature() {
        let rcp = RecomposerWriter(.rcp).bytes
        let g36 = RecomposerWriter(.g36).bytes
        #expect(MIDIFileSignature.matches(rcp.prefix(12)) && MIDIFileSignature.matches(g36.prefix(12)))
        #expect(RecomposerReader.isRecomposer(rcp) && RecomposerReader.isRecomposer(g36))
        #expect(!RecomposerReader.isRecomposer(Array("COME ON MUSIC RECOMPOSER RCP2.0".utf8)))
        #expect(!RecomposerReader.isRecomposer(Array("RCM-PC98".utf8)))
    }
}

extension MIDIMessage {
    /// A note message's key.
    fileprivate var noteKey: UInt8? {
        switch self {
        case .noteOn(_, let note, _), .noteOff(_, let note, _): note
        default: nil
        }
    }
}
