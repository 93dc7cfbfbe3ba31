import Testing

@testable import SMF

/// XMI songs (the Miles Sound System's), written chunk by chunk, read into the MIDI they stand for.
struct XMIReaderTests {
    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(body.count)
        return Array(id.utf8) + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + body
            + (body.count % 2 == 1 ? [0] : [])
    }

    /// `FORM XDIR` (INFO: `songs`), `CAT XMID` of `songs` copies of a `FORM XMID` with `events`.
    static func xmi(_ events: [UInt8], songs: UInt16 = 1) -> [UInt8] {
        let song = chunk("FORM", Array("XMID".utf8) + chunk("TIMB", [0, 0]) + chunk("EVNT", events))
        return chunk("FORM", Array("XDIR".utf8) + chunk("INFO", [UInt8(songs & 0xFF), UInt8(songs >> 8)]))
            + chunk("CAT ", Array("XMID".utf8) + Array([[UInt8]](repeating: song, count: Int(songs)).joined()))
    }

    /// An organ chord: C held 240 ticks (2 s), E struck 120 ticks in for 60; a tempo event (left
    /// out); the end. Delays are runs of bytes below 0x80: 120 is 0x78.
    static let events: [UInt8] = [
        0xC0, 19,
        0xFF, 0x51, 3, 0x07, 0xA1, 0x20,
        0x90, 60, 100, 0x81, 0x70, // note on, length 240 (0x81 0x70)
        0x78, // 120 ticks
        0x90, 64, 90, 0x3C, // note on, length 60
        0x78, // 120 ticks
        0xFF, 0x2F, 0,
    ]

    @Test("the first song's events: note lengths become note offs, time at 120 ticks a second, tempo events left out")
    func events() throws {
        let output = try SMFReader(policy: .strict).read(Self.xmi(Self.events))
        #expect(output.file.kind == .xmi && output.file.timebase == .musical(ticksPerQuarterNote: 60))
        let track = output.file.tracks[0]
        let timed = track.events.map { ($0.tick, track.message(of: $0)) }
        #expect(
            timed.map(\.1) == [
                .meta(.tempo(microsecondsPerQuarterNote: 500_000)), .programChange(channel: 0, program: 19),
                .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 90),
                .noteOff(channel: 0, note: 64, velocity: 0), .noteOff(channel: 0, note: 60, velocity: 0), .meta(.endOfTrack),
            ])
        #expect(timed.map(\.0) == [0, 0, 0, 120, 180, 240, 240])
        #expect(abs(Song(file: output.file).duration - 2) < 1e-9)
    }

    @Test("a lone FORM XMID reads too; a file of several songs plays the first, saying so; a song cut off keeps what came before")
    func layouts() throws {
        let lone = Self.chunk("FORM", Array("XMID".utf8) + Self.chunk("EVNT", Self.events))
        #expect(try SMFReader(policy: .strict).read(lone).file.tracks[0].events.count == 7)
        let three = try SMFReader().read(Self.xmi(Self.events, songs: 3))
        #expect(three.warnings == [.xmiSongsBeyondTheFirst(count: 2)])
        let cut = try SMFReader().read(Self.xmi(Array(Self.events.prefix(12))))
        #expect(cut.warnings.count == 1, "\(cut.warnings)")
        if case .xmiCutOff = cut.warnings.first {} else { Issue.record("\(cut.warnings)") }
        #expect(throws: SMFError.xmiWithoutEvents) { try SMFReader().read(Self.chunk("FORM", Array("XDIR".utf8) + Self.chunk("INFO", [1, 0]))) }
    }

    @Test("each song of a file of several is read by its index, without the warning; past the last, refused naming the count")
    func songsByIndex() throws {
        let three = Self.xmi(Self.events, songs: 3)
        try three.withUnsafeBufferPointer { bytes throws in
            #expect(XMIReader.songs(in: bytes).count == 3)
            var second = XMIReader(bytes, policy: .strict, song: 1)
            #expect(try second.read().file.tracks[0].events.count == 7)
            var fourth = XMIReader(bytes, policy: .lenient, song: 3)
            #expect(throws: SMFError.xmiNoSuchSong(number: 4, count: 3)) { try fourth.read() }
        }
    }
}
