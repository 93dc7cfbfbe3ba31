import Testing

@testable import SMF

/// MUS scores (Doom and its kin), written byte by byte, read into the MIDI messages they stand for.
struct MUSReaderTests {
    /// A MUS file: its header (one primary channel, no instruments) and `score`.
    static func mus(_ score: [UInt8]) -> [UInt8] {
        let length = UInt16(score.count)
        return [0x4D, 0x55, 0x53, 0x1A, UInt8(length & 0xFF), UInt8(length >> 8), 16, 0, 1, 0, 0, 0, 0, 0, 0, 0] + score
    }

    /// An organ note with its volume, a second long (140 ticks, two bytes of delay), then a drum
    /// on channel 15 at the channel's first volume, a pitch bend to the centre on channel 9 (which
    /// moves up one), all notes off, and the score's end.
    static let score: [UInt8] = [
        0x40, 0x00, 19, // controller 0 on channel 0: program 19
        0x40, 0x03, 100, // controller 3 on channel 0: volume 100
        0x91, 0x80 | 60, 90, 0x81, 0x0C, // play note 60 at volume 90 on channel 1; 140 ticks
        0x81, 60, 0x00 | 70, // release note 60; 70 ticks
        0x1F, 36, // play drum 36 on channel 15 (no volume: 127)
        0x29, 128, // pitch bend, centre, on channel 9
        0xB0, 11, 10, // system event: all notes off; 10 ticks
        0x60, // score end
    ]

    @Test("each MUS event as its MIDI message, at MUS's 140 ticks a second; channel 15 is the drums, 9 to 14 move up one")
    func events() throws {
        let output = try SMFReader(policy: .strict).read(Self.mus(Self.score))
        let file = output.file
        #expect(file.kind == .mus && file.timebase == .musical(ticksPerQuarterNote: 70))
        let track = file.tracks[0]
        let timed = track.events.map { ($0.tick, track.message(of: $0)) }
        #expect(timed.map(\.0) == [0, 0, 0, 0, 140, 210, 210, 210, 220])
        #expect(
            timed.map(\.1) == [
                .meta(.tempo(microsecondsPerQuarterNote: 500_000)), .programChange(channel: 0, program: 19),
                .controlChange(channel: 0, controller: 7, value: 100), .noteOn(channel: 1, note: 60, velocity: 90),
                .noteOff(channel: 1, note: 60, velocity: 0), .noteOn(channel: 9, note: 36, velocity: 127),
                .pitchBend(channel: 10, value: 8192), .controlChange(channel: 0, controller: 123, value: 0), .meta(.endOfTrack),
            ])
        #expect(abs(Song(file: file).duration - 220.0 / 140) < 1e-9)
    }

    @Test("a score cut inside an event, or without its end, is read up to there with a warning; an unknown event type stops it")
    func damaged() throws {
        let cut = try SMFReader().read(Self.mus(Array(Self.score.prefix(8))))
        #expect(cut.warnings == [.musCutOff(offset: 16 + 6)])
        #expect(cut.file.tracks[0].events.count == 4)
        let endless = try SMFReader().read(Self.mus(Array(Self.score.dropLast())))
        #expect(endless.warnings == [.musWithoutEnd])
        let unknown = try SMFReader().read(Self.mus([0x70]))
        #expect(unknown.warnings == [.musUnknownEvent(type: 7, offset: 16)])
        #expect(throws: SMFError.truncatedHeader(offset: 10)) { try SMFReader().read(Array(Self.mus([]).prefix(10))) }
        #expect(throws: SMFError.musScoreOutsideFile(offset: 16)) { try SMFReader().read(Array(Self.mus([]))) }
    }
}
