import Testing

@testable import SMF

struct WriterTests {
    @Test func writingAndReadingGivesAnEqualModel() throws {
        var conductor = Track()
        conductor.append(.meta(.text(.trackName, Array("Conductor".utf8))), atTick: 0)
        conductor.append(
            .meta(.timeSignature(numerator: 3, denominatorPower: 2, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 600_000)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0x0FFF_FFFF)
        var piano = Track()
        piano.append(.systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]), atTick: 0)
        piano.append(.programChange(channel: 0, program: 0), atTick: 0)
        for (index, note) in [60, 64, 67, 72].enumerated() {
            piano.append(.noteOn(channel: 0, note: UInt8(note), velocity: 80), atTick: UInt32(index * 240))
            piano.append(.noteOn(channel: 0, note: UInt8(note), velocity: 0), atTick: UInt32(index * 240 + 200))
        }
        piano.append(.pitchBend(channel: 0, value: 12_000), atTick: 1000)
        piano.append(.escapedBytes([0xF3, 0x01]), atTick: 1000)
        piano.append(.noteOn(channel: 0, note: 60, velocity: 1), atTick: 1001)
        piano.append(.meta(.endOfTrack), atTick: 1200)
        let file = MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor, piano])
        let bytes = SMFWriter().encode(file)
        let output = try SMFReader().read(bytes)
        #expect(output.file == file)
        #expect(output.warnings.isEmpty)
        #expect(SMFWriter().encode(output.file) == bytes)
    }

    @Test func usesRunningStatusBetweenChannelMessagesOnly() {
        var track = Track()
        track.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 0), atTick: 10)
        track.append(.meta(.text(.marker, [0x41])), atTick: 10)
        track.append(.noteOn(channel: 0, note: 62, velocity: 80), atTick: 10)
        let bytes = SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track]))
        #expect(
            Array(bytes.dropFirst(22)) == [0x00, 0x90, 60, 80, 0x0A, 60, 0, 0x00, 0xFF, 0x06, 0x01, 0x41, 0x00, 0x90, 62, 80] + Hostile.endOfTrack)
    }

    @Test func writesDataBytesAbove127AsThe7BitsPlayed() throws {
        let read = try SMFReader().read(RawSMF.file(tracks: [[0x00, 0x90, 60, 0x90 | 0, 0x00, 0x90, 0x85, 10]])).file
        #expect(read.tracks[0].events[1].data1 == 0x85)
        #expect(SMFWriter().encode(read) == RawSMF.file(tracks: [[0x00, 0x90, 60, 0x10, 0x00, 0x05, 10]]))
    }

    /// A track without End of Track gets one at its last event; one with data, or before other
    /// events (as `Track.append` allows), is left out.
    @Test func endsEveryTrackWithExactlyOneEndOfTrack() throws {
        var missing = Track()
        missing.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: 10)
        var early = Track()
        early.append(.meta(.endOfTrack), atTick: 5)
        early.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: 10)
        let withData = try SMFReader().read(Hostile.oneTrack([0x0A, 0x90, 60, 80, 0x00, 0xFF, 0x2F, 0x01, 0x00], endOfTrack: false)).file.tracks[0]
        for track in [missing, early, withData] {
            let bytes = SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track]))
            #expect(bytes == RawSMF.file(format: 0, division: 96, tracks: [[0x0A, 0x90, 60, 80]]))
        }
    }

    /// Meta events the reader keeps uninterpreted are left out; where one kept the time between
    /// two events, an empty escape event keeps it.
    @Test func leavesOutUninterpretedMetaEventsButNotTheirTime() throws {
        let shortTempo: [UInt8] = [0xFF, 0x51, 0x02, 0x07, 0xA1]
        let zeroTempo: [UInt8] = [0xFF, 0x51, 0x03, 0x00, 0x00, 0x00]
        let halfDelta = RawSMF.vlq(Track.maximumDelta / 2 + 1)
        let read = try SMFReader().read(
            Hostile.oneTrack([0x00] + shortTempo + [0x00] + zeroTempo + Hostile.note + halfDelta + shortTempo + halfDelta + [0x3C, 0x00])
        ).file
        let written = SMFWriter().written(read)
        #expect(
            Hostile.messages(written.tracks[0]) == [
                .noteOn(channel: 0, note: 0x3C, velocity: 0x40), .noteOff(channel: 0, note: 0x3C, velocity: 0x40), .escapedBytes([]),
                .noteOff(channel: 0, note: 0x3C, velocity: 0), .meta(.endOfTrack),
            ])
        #expect(
            written.tracks[0].events.map(\.tick) == [
                0, 96, 96 + Track.maximumDelta / 2 + 1, 96 + 2 * (Track.maximumDelta / 2 + 1), 96 + 2 * (Track.maximumDelta / 2 + 1),
            ])
        let again = try SMFReader(policy: .strict).read(SMFWriter().encode(read))
        #expect(again.file == written)
    }

    @Test func writesFormat0WithSeveralTracksAsFormat1AndNoTracksAsOneEmptyTrack() throws {
        let empty = MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96))
        #expect(SMFWriter().encode(empty) == RawSMF.file(format: 0, division: 96, tracks: [[]]))
        let two = MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [Track(), Track()])
        #expect(SMFWriter().encode(two) == RawSMF.file(format: 1, division: 96, tracks: [[], []]))
    }

    @Test func writesSMPTEDivision() throws {
        let file = MIDIFile(format: .singleTrack, timebase: .smpte(.fps29_97Drop, ticksPerFrame: 80), tracks: [Track()])
        let bytes = SMFWriter().encode(file)
        #expect(Array(bytes[12...13]) == [0xE3, 80])
        #expect(try SMFReader().read(bytes).file.timebase == file.timebase)
    }
}
