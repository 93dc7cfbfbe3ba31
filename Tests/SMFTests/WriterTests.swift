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
        #expect(Array(bytes.dropFirst(22)) == [0x00, 0x90, 60, 80, 0x0A, 60, 0, 0x00, 0xFF, 0x06, 0x01, 0x41, 0x00, 0x90, 62, 80])
    }

    @Test func keepsRawDataBytesAbove127Readable() throws {
        let bytes = RawSMF.file(tracks: [[0x00, 0x90, 60, 0x90 | 0, 0x00, 0x90, 0x85, 10]])
        let read = try SMFReader().read(bytes).file
        let again = try SMFReader().read(SMFWriter().encode(read)).file
        #expect(again == read)
        #expect(read.tracks[0].events[1].data1 == 0x85)
        #expect(read.tracks[0].message(of: read.tracks[0].events[1]) == .noteOn(channel: 0, note: 5, velocity: 10))
    }

    @Test func writesSMPTEDivision() throws {
        let file = MIDIFile(format: .singleTrack, timebase: .smpte(.fps29_97Drop, ticksPerFrame: 80), tracks: [Track()])
        let bytes = SMFWriter().encode(file)
        #expect(Array(bytes[12...13]) == [0xE3, 80])
        #expect(try SMFReader().read(bytes).file.timebase == file.timebase)
    }
}
