import TestSupport
import Testing

@testable import SMF

/// MIDI 2.0 Clip Files (`SMF2CLIP`), written packet by packet (`MIDIClipWriter`), read into the
/// MIDI file smfplay plays: each message as MIDI 1.0 says it, to the number.
struct MIDIClipReaderTests {
    typealias Clip = MIDIClipWriter

    /// A clip at 480 ticks a quarter note: the header, Start of Clip, `build`'s packets, End of Clip.
    static func clip(_ build: (inout Clip) -> Void) -> [UInt8] {
        var clip = Clip(ticksPerQuarterNote: 480)
        clip.append(after: 0, Clip.startOfClip)
        build(&clip)
        clip.append(after: 0, Clip.endOfClip)
        return clip.bytes
    }

    /// The timed messages of a track, End of Track left out.
    static func messages(_ track: Track) -> [(tick: UInt32, message: MIDIMessage)] {
        track.events.map { ($0.tick, track.message(of: $0)) }.filter { $0.message != .meta(.endOfTrack) }
    }

    @Test("MIDI 1.0 messages in packets: a MIDI 2.0 clip file of a conductor's track and one for the group, at its ticks, ended at the End of Clip")
    func midi1Messages() throws {
        let bytes = Self.clip { clip in
            clip.append(after: 0, Clip.midi1(0xC0, 19))
            clip.append(after: 0, Clip.midi1(0x90, 60, 100))
            clip.append(after: 480, Clip.midi1(0x80, 60, 64))
            clip.append(after: 480, Clip.midi1(0xE0, 0x00, 0x50))
        }
        let output = try SMFReader(policy: .strict).read(bytes)
        #expect(output.warnings.isEmpty)
        let file = output.file
        #expect(file.kind == .midi2Clip)
        #expect(file.format == .multipleTracksSynchronous && file.timebase == .musical(ticksPerQuarterNote: 480))
        #expect(file.tracks.count == 2)
        let played = Self.messages(file.tracks[1])
        #expect(played.map(\.tick) == [0, 0, 0, 480, 960])
        #expect(
            played.map(\.message) == [
                .meta(.port(0)), .programChange(channel: 0, program: 19), .noteOn(channel: 0, note: 60, velocity: 100),
                .noteOff(channel: 0, note: 60, velocity: 64), .pitchBend(channel: 0, value: 0x50 << 7),
            ])
        #expect(file.tracks.allSatisfy { $0.hasEndOfTrack && $0.lengthInTicks == 960 })
        #expect(abs(Song(file: file).duration - 1.0) < 1e-9, "960 ticks at 120 bpm")
    }

    @Test(
        "MIDI 2.0 channel voice messages translated down: velocities and values keep their top bits; a note on at velocity 0 sounds at 1; bank with program; RPN and NRPN"
    )
    func midi2Messages() throws {
        let bytes = Self.clip { clip in
            clip.append(after: 0, Clip.midi2(opcode: 0xC, channel: 2, 0, 1, data: 48 << 24 | 0x79 << 8 | 0x01))
            clip.append(after: 0, Clip.midi2(opcode: 0xC, channel: 3, 0, 0, data: 5 << 24 | 0x7F << 8))
            clip.append(after: 0, Clip.midi2(opcode: 0x9, channel: 2, 64, data: 0xFFFF_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0x9, channel: 2, 67, data: 0x0100_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0xB, channel: 2, 7, data: 0x8000_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0xE, channel: 2, 0, data: 0x8000_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0xD, channel: 2, 0, data: 0xFFFF_FFFF))
            clip.append(after: 0, Clip.midi2(opcode: 0xA, channel: 2, 64, data: 0x4000_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0x2, channel: 2, 0, 0, data: 0x1800_0000))
            clip.append(after: 0, Clip.midi2(opcode: 0x3, channel: 2, 1, 8, data: 0x4020_0000))
            clip.append(after: 240, Clip.midi2(opcode: 0x8, channel: 2, 64, data: 0x7FFF_0000))
        }
        let output = try SMFReader(policy: .strict).read(bytes)
        #expect(
            Self.messages(output.file.tracks[1]).map(\.message) == [
                .meta(.port(0)),
                .controlChange(channel: 2, controller: 0, value: 0x79), .controlChange(channel: 2, controller: 32, value: 1),
                .programChange(channel: 2, program: 48),
                // No bank: the program alone.
                .programChange(channel: 3, program: 5),
                .noteOn(channel: 2, note: 64, velocity: 127), .noteOn(channel: 2, note: 67, velocity: 1),
                .controlChange(channel: 2, controller: 7, value: 64),
                .pitchBend(channel: 2, value: 8192),
                .channelPressure(channel: 2, pressure: 127),
                .notePressure(channel: 2, note: 64, pressure: 32),
                // Pitch bend sensitivity (RPN 0) of 12 semitones: 0x1800_0000 is 12 << 25.
                .controlChange(channel: 2, controller: 101, value: 0), .controlChange(channel: 2, controller: 100, value: 0),
                .controlChange(channel: 2, controller: 6, value: 12), .controlChange(channel: 2, controller: 38, value: 0),
                .controlChange(channel: 2, controller: 99, value: 1), .controlChange(channel: 2, controller: 98, value: 8),
                .controlChange(channel: 2, controller: 6, value: 32), .controlChange(channel: 2, controller: 38, value: 8),
                .noteOff(channel: 2, note: 64, velocity: 63),
            ])
    }

    @Test(
        "per-note controllers, per-note pitch bend and relative controllers are dropped, each kind said once with its count; strict reading refuses them"
    )
    func untranslatableMessagesDropped() throws {
        let bytes = Self.clip { clip in
            clip.append(after: 0, Clip.midi2(opcode: 0x9, channel: 0, 60, data: 0x8000_0000))
            for _ in 0..<3 { clip.append(after: 10, Clip.midi2(opcode: 0x6, channel: 0, 60, data: 0x9000_0000)) }
            clip.append(after: 10, Clip.midi2(opcode: 0x0, channel: 0, 60, 7, data: 0x1000_0000))
            clip.append(after: 10, Clip.midi2(opcode: 0x4, channel: 0, 0, 0, data: 1))
        }
        let output = try SMFReader().read(bytes)
        #expect(
            output.warnings == [
                .midi2MessagesDropped(.perNoteController, count: 1), .midi2MessagesDropped(.perNotePitchBend, count: 3),
                .midi2MessagesDropped(.relativeController, count: 1),
            ])
        #expect(output.warnings[1].description == "3 MIDI 2.0 per-note pitch bend messages, which MIDI 1.0 cannot say; dropped")
        #expect(throws: SMFError.rejected(.midi2MessagesDropped(.perNoteController, count: 1))) { try SMFReader(policy: .strict).read(bytes) }
    }

    @Test("Flex Data: tempo in 10 ns units, time and key signatures, the clip's name as the title, the others labelled, lyrics over several packets")
    func flexData() throws {
        let bytes = Self.clip { clip in
            clip.append(after: 0, Clip.tempo(beatsPerMinute: 90))
            clip.append(after: 0, Clip.flex(bank: 0, status: 1, (3 << 24 | 3 << 16 | 8 << 8, 0, 0)))
            // Three sharps, tonic F (6): F sharp minor, not A major.
            clip.append(after: 0, Clip.flex(bank: 0, status: 5, (3 << 28 | 6 << 24, 0, 0)))
            for packet in Clip.text(bank: 1, status: 3, "a clip name") { clip.append(after: 0, packet) }
            for packet in Clip.text(bank: 1, status: 2, "A Composition Named At Length") { clip.append(after: 0, packet) }
            for packet in Clip.text(bank: 1, status: 5, "Erik Satie") { clip.append(after: 0, packet) }
            clip.append(after: 0, Clip.midi1(0x90, 60, 100))
            for (index, packet) in Clip.text(bank: 2, status: 1, "Hello, wonderful world").enumerated() {
                clip.append(after: index == 0 ? 240 : 0, packet)
            }
            clip.append(after: 240, Clip.tempo(beatsPerMinute: 120))
        }
        let output = try SMFReader(policy: .strict).read(bytes)
        let conductor = Self.messages(output.file.tracks[0])
        #expect(
            conductor.map(\.message) == [
                .meta(.text(.trackName, Array("A Composition Named At Length".utf8))),
                .meta(.text(.text, Array("Clip: a clip name".utf8))),
                .meta(.tempo(microsecondsPerQuarterNote: 666_667)),
                .meta(.timeSignature(numerator: 3, denominatorPower: 3, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)),
                .meta(.keySignature(sharpsOrFlats: 3, isMinor: true)),
                .meta(.text(.text, Array("Composer: Erik Satie".utf8))),
                .meta(.text(.lyric, Array("Hello, wonderful world".utf8))),
                .meta(.tempo(microsecondsPerQuarterNote: 500_000)),
            ])
        #expect(conductor.map(\.tick) == [0, 0, 0, 0, 0, 0, 240, 480])
        #expect(output.file.titleText(decoding: TextDecoding(detectingIn: output.file)) == "A Composition Named At Length")
    }

    @Test(
        "key signatures: the tonic says major or minor; a count past 7 flats names no key",
        arguments: [
            (UInt32(0), UInt32(3), Int8(0), false), (0, 1, 0, true), (0xE, 2, -2, false), (0xE, 7, -2, true), (7, 3, 7, false), (0, 0, 0, false),
        ])
    func keySignatures(nibble: UInt32, tonic: UInt32, sharpsOrFlats: Int8, isMinor: Bool) {
        let signature = ClipKeySignature(word: nibble << 28 | tonic << 24)
        #expect(signature?.sharpsOrFlats == sharpsOrFlats && signature?.isMinor == isMinor, "\(String(describing: signature))")
        #expect(ClipKeySignature(word: 8 << 28) == nil)
    }

    @Test("SysEx7: a message in one packet, and one over three (a GS reset), joined; groups are ports, one track each")
    func systemExclusiveAndGroups() throws {
        let reset: [UInt8] = [0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0x01, 0x02, 0x03, 0x04]
        let bytes = Self.clip { clip in
            for packet in Clip.systemExclusive([0x7E, 0x7F, 0x09, 0x01]) { clip.append(after: 0, packet) }
            for packet in Clip.systemExclusive(group: 1, reset) { clip.append(after: 0, packet) }
            clip.append(after: 0, Clip.midi1(group: 1, 0x99, 36, 100))
        }
        let output = try SMFReader(policy: .strict).read(bytes)
        let tracks = output.file.tracks
        #expect(tracks.count == 3)
        #expect(Self.messages(tracks[1]).map(\.message) == [.meta(.port(0)), .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7])])
        #expect(
            Self.messages(tracks[2]).map(\.message) == [
                .meta(.port(1)), .systemExclusive(reset + [0xF7]), .noteOn(channel: 9, note: 36, velocity: 100),
            ])
    }

    @Test("a damaged clip: no End of Clip, a packet cut by the file's end, a SysEx begun and never ended: read with a warning each")
    func damagedClip() throws {
        var clip = Clip(ticksPerQuarterNote: 96)
        clip.append(after: 0, Clip.startOfClip)
        clip.append(after: 0, Clip.midi1(0x90, 60, 100))
        clip.append(after: 0, Clip.systemExclusive(Array(0..<10))[0])
        clip.append(after: 96, Clip.midi1(0x80, 60, 0))
        let bytes = clip.bytes + [0x40, 0x00]
        let output = try SMFReader().read(bytes)
        #expect(
            output.warnings == [
                .clipCutOff(offset: bytes.count - 2), .clipWithoutEnd, .unfinishedClipSystemExclusive(offset: 8 + 4 * 10),
            ], "\(output.warnings)")
        #expect(Self.messages(output.file.tracks[1]).map(\.tick) == [0, 0, 96])
    }

    @Test("a clip without its ticks per quarter note, or with 0, is refused; one without Start of Clip is read from its first message")
    func clipsRefusedOrTaken() throws {
        var headless = Clip(ticksPerQuarterNote: nil)
        headless.append(after: 0, Clip.startOfClip)
        headless.append(after: 0, Clip.midi1(0x90, 60, 100))
        #expect(throws: SMFError.clipWithoutTicksPerQuarterNote) { try SMFReader().read(headless.bytes) }
        #expect(throws: SMFError.clipTicksPerQuarterNoteOutOfRange(0)) { try SMFReader().read(Clip(ticksPerQuarterNote: 0).bytes) }
        var startless = Clip(ticksPerQuarterNote: 480)
        startless.append(after: 0, Clip.midi1(0x90, 60, 100))
        startless.append(after: 480, Clip.midi1(0x80, 60, 0))
        startless.append(after: 0, Clip.endOfClip)
        let output = try SMFReader().read(startless.bytes)
        #expect(output.warnings == [.clipWithoutStart])
        #expect(Self.messages(output.file.tracks[1]).map(\.tick) == [0, 0, 480])
    }

    @Test("a clip whose clockstamps run past what a MIDI file counts is refused, not trapped")
    func clipTooLong() throws {
        var clip = Clip(ticksPerQuarterNote: 480)
        clip.append(after: 0, Clip.startOfClip)
        clip.append(after: 0, Clip.midi1(0x90, 60, 100))
        for _ in 0..<300 { clip.append(Clip.deltaClockstamp(0xF_FFFF)) }
        clip.append(after: 0, Clip.midi1(0x80, 60, 0))
        // The note off, 300 clockstamps of 0xFFFFF ticks after the note: too far.
        #expect(throws: SMFError.clipTooLong(offset: 8 + 4 * (2 + 5 + 2 + 300 + 1))) { try SMFReader().read(clip.bytes) }
    }

    @Test("the event stream (thumbnails, the roll) walks a clip as the file it reads as")
    func eventStream() throws {
        let bytes = Self.clip { clip in
            clip.append(after: 0, Clip.midi1(0x90, 60, 100))
            clip.append(after: 480, Clip.midi1(0x80, 60, 0))
        }
        let stream = try SMFEventStream(bytes: bytes)
        #expect(stream.timebase == .musical(ticksPerQuarterNote: 480))
        #expect(MIDIFileSignature.matches(bytes.prefix(MIDIFileSignature.length)))
    }
}
