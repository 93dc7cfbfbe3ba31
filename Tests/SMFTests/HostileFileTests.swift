import Testing

@testable import SMF

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes and helpers for the hostile-input tests.
///
/// Layout used by every expected offset below: the header is bytes 0–13, so the
/// first `MTrk` chunk starts at 14 and its first event at 22. ``note`` is 8 bytes
/// (2 events); `RawSMF.track(note)` adds End of Track and is 20 bytes, so a
/// second track's events start at 42 and a third's at 62. In an RMID file the
/// `data` chunk's body starts at 20 when no chunk comes before it.
enum Hostile {
    /// A note on at tick 0 and its note off 96 ticks later: 8 bytes, 2 events.
    static let note: [UInt8] = [0x00, 0x90, 0x3C, 0x40, 0x60, 0x80, 0x3C, 0x40]
    static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]
    /// A valid 34-byte file: one track holding ``note`` and End of Track (3 events).
    static let valid = RawSMF.file(tracks: [note])

    /// A file with one track holding `events`.
    static func oneTrack(_ events: [UInt8], endOfTrack: Bool = true) -> [UInt8] {
        RawSMF.header(tracks: 1) + RawSMF.track(events, endOfTrack: endOfTrack)
    }

    /// An RMID file: the `before` chunks, then `smf` in the `data` chunk.
    static func rmid(_ smf: [UInt8], before: [[UInt8]] = [], dataLength: UInt32? = nil) -> [UInt8] {
        RawSMF.riff(form: "RMID", before + [RawSMF.riffChunk("data", smf, declaredLength: dataLength)])
    }

    static func zeros(_ count: Int) -> [UInt8] { Array(repeating: 0, count: count) }

    /// `count` notes, each 0x0FFFFFFF ticks after the one before (running status after the first).
    /// The first is 7 bytes, the others 6.
    static func maximumDeltas(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { index -> [UInt8] in
            [0xFF, 0xFF, 0xFF, 0x7F] + (index == 0 ? [0x90, 0x3C, 0x40] : [0x3C, 0x40])
        }
    }

    /// `count` tempo meta events of 2 bytes instead of 3 (6 bytes each): one `metaLengthMismatch` each.
    static func shortTempos(_ count: Int) -> [UInt8] {
        Array(Array(repeating: [0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1], count: count).joined())
    }

    static func eventCounts(_ output: SMFReader.Output) -> [Int] {
        output.file.tracks.map(\.events.count)
    }

    static func messages(_ track: Track) -> [MIDIMessage] {
        track.events.map { track.message(of: $0) }
    }

    /// The error reading `bytes` gives, `nil` when it reads.
    static func readError(_ bytes: [UInt8], policy: SMFReadingPolicy = .lenient) -> SMFError? {
        do {
            _ = try SMFReader(policy: policy).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The process's peak resident memory so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}

/// Input that must be refused, with the error it must give.
struct HostileErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let error: SMFError
    var testDescription: String { name }

    init(_ name: String, _ bytes: [UInt8], _ error: SMFError) {
        self.name = name
        self.bytes = bytes
        self.error = error
    }

    static let all: [HostileErrorCase] = {
        let note = Hostile.note
        let headerFields = RawSMF.be16(1) + RawSMF.be16(1) + RawSMF.be16(480)
        return [
            .init("empty file", [], .notAMIDIFile),
            .init(
                "header length 5", RawSMF.header(tracks: 1, length: 5) + RawSMF.track(note),
                .headerTooShort(length: 5, offset: 0)),
            .init(
                "header length 0", RawSMF.header(tracks: 1, length: 0) + RawSMF.track(note),
                .headerTooShort(length: 0, offset: 0)),
            .init(
                "header length 4096 in a 34-byte file", RawSMF.chunk("MThd", headerFields, declaredLength: 4096) + RawSMF.track(note),
                .truncatedHeader(offset: 34)),
            .init(
                "header length 0xFFFFFFFF", RawSMF.chunk("MThd", headerFields, declaredLength: 0xFFFF_FFFF) + RawSMF.track(note),
                .truncatedHeader(offset: 34)),
            .init("0 ticks per quarter note", RawSMF.file(division: 0, tracks: [note]), .zeroDivision),
            .init("SMPTE at -23 frames per second", RawSMF.file(division: 0xE928, tracks: [note]), .unknownFrameRate(-23)),
            .init("SMPTE at -128 frames per second", RawSMF.file(division: 0x8004, tracks: [note]), .unknownFrameRate(-128)),
            .init("SMPTE at 25 fps with 0 ticks per frame", RawSMF.file(division: 0xE700, tracks: [note]), .zeroDivision),
            .init(
                "only unknown chunks, no MTrk", RawSMF.header(tracks: 1) + RawSMF.chunk("XFIH", [1, 2, 3, 4]) + RawSMF.chunk("MTrx", []),
                .noTracks),
            .init("header alone", RawSMF.header(tracks: 1), .noTracks),
            .init(
                "delta time of 5 bytes in track 2", RawSMF.file(tracks: [note, [0x81, 0x81, 0x81, 0x81, 0x00, 0x90, 0x3C, 0x40]]),
                .variableLengthQuantityTooLong(offset: 42, track: 2)),
            .init(
                "sysex length of 5 bytes", Hostile.oneTrack([0x00, 0xF0, 0x81, 0x81, 0x81, 0x81, 0x00, 0xF7]),
                .variableLengthQuantityTooLong(offset: 24, track: 1)),
            .init(
                "meta length of 5 bytes", Hostile.oneTrack([0x00, 0xFF, 0x01, 0x81, 0x81, 0x81, 0x81, 0x00]),
                .variableLengthQuantityTooLong(offset: 25, track: 1)),
            .init(
                "note cut off inside a complete chunk, a track after it",
                RawSMF.header(tracks: 2) + RawSMF.track(note + [0x00, 0x90, 0x3C], endOfTrack: false) + RawSMF.track(note),
                .truncatedEvent(offset: 30, track: 1)),
            .init(
                "running-status note cut off inside a complete chunk", Hostile.oneTrack(note + [0x00, 0x3E], endOfTrack: false),
                .truncatedEvent(offset: 30, track: 1)),
            .init(
                "delta time with no event after it", Hostile.oneTrack(note + [0x00], endOfTrack: false),
                .truncatedEvent(offset: 30, track: 1)),
            .init(
                "meta event cut off after its type", Hostile.oneTrack(note + [0x00, 0xFF, 0x2F], endOfTrack: false),
                .truncatedEvent(offset: 30, track: 1)),
            .init(
                "sysex declaring 0x0FFFFFFF bytes", Hostile.oneTrack([0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0x7F, 0x7E, 0xF7]),
                .truncatedEvent(offset: 22, track: 1)),
            .init(
                "text meta declaring 127 bytes, 6 left", Hostile.oneTrack([0x00, 0xFF, 0x01, 0x7F, 0x41, 0x42]),
                .truncatedEvent(offset: 22, track: 1)),
            .init(
                "data byte as first event, no running status", Hostile.oneTrack([0x00, 0x3C, 0x40]),
                .missingStatus(byte: 0x3C, offset: 23, track: 1)),
            .init(
                "data byte after sysex, no running status before it",
                Hostile.oneTrack([0x00, 0xF0, 0x01, 0xF7, 0x00, 0x3C, 0x40]),
                .missingStatus(byte: 0x3C, offset: 27, track: 1)),
            .init(
                "RIFF WAVE", RawSMF.riff(form: "WAVE", [RawSMF.riffChunk("fmt ", Hostile.zeros(16))]),
                .riffWithoutMIDI(formType: "WAVE")),
            .init(
                "RIFF with an unprintable form type", RawSMF.riff(form: "\u{01}\u{02}\u{03}\u{04}", []),
                .riffWithoutMIDI(formType: "????")),
            .init(
                "RIFF RMID with no data chunk", RawSMF.riff(form: "RMID", [RawSMF.riffChunk("LIST", Array("INFO".utf8))]),
                .riffWithoutDataChunk),
            .init(
                "RIFF RMID whose data chunk holds no MThd",
                Hostile.rmid(Array("JUNK".utf8) + RawSMF.be32(6) + headerFields + RawSMF.track(note)),
                .riffWithoutDataChunk),
            .init(
                "RIFF RMID whose data chunk ends inside MThd", Hostile.rmid(Array(Hostile.valid.prefix(10))),
                .truncatedHeader(offset: 30)),
            .init(
                "offsets count the RIFF wrapper and an odd chunk's pad byte",
                Hostile.rmid(Hostile.oneTrack([0x00, 0x3C, 0x40]), before: [RawSMF.riffChunk("LIST", [0x41, 0x42, 0x43])]),
                .missingStatus(byte: 0x3C, offset: 12 + 12 + 8 + 23, track: 1)),
            .init("257 bytes before MThd", Hostile.zeros(257) + Hostile.valid, .notAMIDIFile),
            .init(
                "offsets count skipped leading bytes", Hostile.zeros(128) + Hostile.oneTrack([0x00, 0x3C, 0x40]),
                .missingStatus(byte: 0x3C, offset: 128 + 23, track: 1)),
        ]
    }()
}

/// Input that must be read, with the warnings it must give and the events kept per track.
struct HostileWarningCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let warnings: [SMFWarning]
    let eventCounts: [Int]
    var testDescription: String { name }

    init(_ name: String, _ bytes: [UInt8], _ warnings: [SMFWarning], events eventCounts: [Int]) {
        self.name = name
        self.bytes = bytes
        self.warnings = warnings
        self.eventCounts = eventCounts
    }

    static let all: [HostileWarningCase] = {
        let note = Hostile.note
        let valid = Hostile.valid
        return [
            .init("128-byte MacBinary header", Hostile.zeros(128) + valid, [.skippedLeadingBytes(count: 128)], events: [3]),
            .init("256 bytes before MThd", Hostile.zeros(256) + valid, [.skippedLeadingBytes(count: 256)], events: [3]),
            .init("10-byte header", RawSMF.header(tracks: 1, length: 10) + RawSMF.track(note), [.longHeader(length: 10)], events: [3]),
            .init("format 7", RawSMF.file(format: 7, tracks: [note]), [.unknownFormat(7)], events: [3]),
            .init(
                "format 0 with 2 tracks", RawSMF.file(format: 0, tracks: [note, note]),
                [.singleTrackFormatWithManyTracks(count: 2)], events: [3, 3]),
            .init(
                "header declares 65535 tracks, 1 present", RawSMF.header(tracks: 65535) + RawSMF.track(note),
                [.trackCountMismatch(declared: 65535, found: 1)], events: [3]),
            .init(
                "unknown chunks before and between tracks",
                RawSMF.header(tracks: 2) + RawSMF.chunk("XFIH", [1, 2, 3]) + RawSMF.track(note) + RawSMF.chunk("junk", []) + RawSMF.track(note),
                [.unknownChunk(id: "XFIH", offset: 14), .unknownChunk(id: "junk", offset: 45)], events: [3, 3]),
            .init(
                "MTrk declaring 0xFFFFFFFF bytes", RawSMF.header(tracks: 1) + RawSMF.track(note, declaredLength: 0xFFFF_FFFF),
                [.trackPastEndOfFile(track: 1, declared: 0xFFFF_FFFF, available: 12)], events: [3]),
            .init(
                "note cut off by the end of the file",
                RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", note + [0x00, 0x90, 0x3E], declaredLength: 16),
                [.trackPastEndOfFile(track: 1, declared: 16, available: 11), .trackCutOff(track: 1, offset: 30)], events: [2]),
            .init(
                "sysex declaring 0x0FFFFFFF bytes in track 2, cut by the end of the file",
                RawSMF.header(tracks: 2) + RawSMF.track(note)
                    + RawSMF.chunk("MTrk", note + [0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0x7F, 0x7E, 0x7F], declaredLength: 0x1000_0000),
                [.trackPastEndOfFile(track: 2, declared: 0x1000_0000, available: 16), .trackCutOff(track: 2, offset: 50)], events: [3, 2]),
            .init(
                "file ends between two events of a track", RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", note, declaredLength: 12),
                [.trackPastEndOfFile(track: 1, declared: 12, available: 8), .missingEndOfTrack(track: 1)], events: [2]),
            .init(
                "file ends inside the second MTrk's chunk header", Array(RawSMF.file(tracks: [note, note]).dropLast(16)),
                [.trailingData(count: 4, offset: 34), .trackCountMismatch(declared: 2, found: 1)], events: [3]),
            .init(
                "RMID whose data chunk runs past the end, cutting End of Track",
                Hostile.rmid(Array(valid.dropLast(2)), dataLength: 0x7FFF_FFFF),
                [.trackPastEndOfFile(track: 1, declared: 12, available: 10), .trackCutOff(track: 1, offset: 20 + 30)], events: [2]),
            .init("trailing garbage", valid + [0xDE, 0xAD, 0xBE, 0xEF, 0x00], [.trailingData(count: 5, offset: 34)], events: [3]),
            .init("12 bytes of zero padding", valid + Hostile.zeros(12), [.trailingData(count: 12, offset: 34)], events: [3]),
            .init("missing End of Track", Hostile.oneTrack(note, endOfTrack: false), [.missingEndOfTrack(track: 1)], events: [2]),
            .init(
                "bytes after End of Track", RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", note + Hostile.endOfTrack + [0x00, 0x90, 0x3C]),
                [.dataAfterEndOfTrack(track: 1, count: 3)], events: [3]),
            .init(
                "note and velocity above 127", Hostile.oneTrack([0x00, 0x90, 0xBC, 0xC0]),
                [.dataBytesAbove127(track: 1, count: 2, offset: 24)], events: [2]),
            .init(
                "velocity alone above 127", Hostile.oneTrack([0x00, 0x90, 0x3C, 0xC0]),
                [.dataBytesAbove127(track: 1, count: 1, offset: 25)], events: [2]),
            .init(
                "tempo of 2 bytes", Hostile.oneTrack([0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1]),
                [.metaLengthMismatch(type: 0x51, length: 2, offset: 22, track: 1)], events: [2]),
            .init(
                "key signature of 3 bytes in track 2", RawSMF.file(tracks: [note, [0x00, 0xFF, 0x59, 0x03, 0x01, 0x00, 0x00]]),
                [.metaLengthMismatch(type: 0x59, length: 3, offset: 42, track: 2)], events: [3, 2]),
            .init(
                "End of Track of 1 byte still ends the track", Hostile.oneTrack(note + [0x00, 0xFF, 0x2F, 0x01, 0x00], endOfTrack: false),
                [.metaLengthMismatch(type: 0x2F, length: 1, offset: 30, track: 1)], events: [3]),
            .init(
                "running status used again after sysex",
                Hostile.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x00, 0xF0, 0x01, 0xF7, 0x00, 0x3C, 0x00]),
                [.runningStatusAfterSystemExclusive(track: 1, count: 1, offset: 31)], events: [4]),
            .init(
                "MIDI Time Code quarter frame between notes", Hostile.oneTrack(note + [0x00, 0xF1, 0x23] + note),
                [.straySystemMessages(status: 0xF1, track: 1, count: 1, offset: 31)], events: [5]),
            .init("tempo of 0", Hostile.oneTrack([0x00, 0xFF, 0x51, 0x03, 0x00, 0x00, 0x00]), [.zeroTempo(offset: 22, track: 1)], events: [2]),
            .init(
                "an unknown chunk before a track warns before the track",
                RawSMF.header(tracks: 2) + RawSMF.chunk("XFIH", []) + RawSMF.track(note, endOfTrack: false)
                    + RawSMF.track([0x00, 0xFF, 0x51, 0x03, 0x00, 0x00, 0x00]),
                [.unknownChunk(id: "XFIH", offset: 14), .missingEndOfTrack(track: 1), .zeroTempo(offset: 46, track: 2)], events: [2, 2]),
            // `SMFReader.Output.warnings` promises file order: track 1 (bytes 14–32) comes
            // before the chunk at 33 and the trailing bytes at 61.
            .init(
                "a warning inside track 1 comes before a chunk and trailing bytes after it",
                RawSMF.header(tracks: 2) + RawSMF.track([0x00, 0xFF, 0x51, 0x03, 0x00, 0x00, 0x00]) + RawSMF.chunk("junk", [])
                    + RawSMF.track(note) + [0xDE, 0xAD],
                [.zeroTempo(offset: 22, track: 1), .unknownChunk(id: "junk", offset: 33), .trailingData(count: 2, offset: 61)],
                events: [2, 3]),
        ]
    }()
}

@Suite struct HostileFileTests {
    @Test("refused with the exact error", arguments: HostileErrorCase.all)
    func refuses(_ hostile: HostileErrorCase) {
        #expect(Hostile.readError(hostile.bytes) == hostile.error)
    }

    @Test("every 1- to 13-byte prefix of a file is refused", arguments: 1...13)
    func refusesShortPrefix(length: Int) {
        let prefix = Array(Hostile.valid.prefix(length))
        // "M", "MT" and "MTh" are not yet a MIDI file; from "MThd" on the header is cut.
        let expected: SMFError = length < 4 ? .notAMIDIFile : .truncatedHeader(offset: length)
        #expect(Hostile.readError(prefix) == expected)
    }

    @Test("read with the exact warnings and the events kept", arguments: HostileWarningCase.all)
    func warns(_ hostile: HostileWarningCase) throws {
        let output = try SMFReader().read(hostile.bytes)
        #expect(output.warnings == hostile.warnings)
        #expect(output.omittedWarningCount == 0)
        #expect(Hostile.eventCounts(output) == hostile.eventCounts)
    }

    @Test("strict reading rejects the first warning", arguments: HostileWarningCase.all)
    func strictRejects(_ hostile: HostileWarningCase) throws {
        let first = try #require(hostile.warnings.first)
        #expect(Hostile.readError(hostile.bytes, policy: .strict) == .rejected(first))
    }

    @Test func keepsDataBytesAbove127RawAndMasksThemInMessages() throws {
        let output = try SMFReader().read(Hostile.oneTrack([0x00, 0x90, 0xBC, 0xC0]))
        let track = try #require(output.file.tracks.first)
        let event = try #require(track.events.first)
        #expect(event.data1 == 0xBC)
        #expect(event.data2 == 0xC0)
        #expect(event.startsNote)
        #expect(track.message(of: event) == .noteOn(channel: 0, note: 0x3C, velocity: 0x40))
    }

    @Test func keepsMetaEventsOfTheWrongLengthUninterpreted() throws {
        let output = try SMFReader().read(Hostile.oneTrack([0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1, 0x00, 0xFF, 0x59, 0x03, 0x01, 0x00, 0x00]))
        let track = try #require(output.file.tracks.first)
        #expect(
            Hostile.messages(track) == [
                .meta(.unknown(type: 0x51, data: [0x07, 0xA1])),
                .meta(.unknown(type: 0x59, data: [0x01, 0x00, 0x00])),
                .meta(.endOfTrack),
            ])
        #expect(
            output.warnings == [
                .metaLengthMismatch(type: 0x51, length: 2, offset: 22, track: 1),
                .metaLengthMismatch(type: 0x59, length: 3, offset: 28, track: 1),
            ])
    }

    @Test func readsAnUnknownFormatAsFormat1() throws {
        let output = try SMFReader().read(RawSMF.file(format: 0xFFFF, tracks: [Hostile.note]))
        #expect(output.file.format == .multipleTracksSynchronous)
        #expect(output.warnings == [.unknownFormat(0xFFFF)])
    }

    @Test func keepsTheEventsBeforeACutAtTheEndOfTheFile() throws {
        let cutNote = RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", Hostile.note + [0x00, 0x90, 0x3E], declaredLength: 16)
        let endless = RawSMF.header(tracks: 1) + RawSMF.track(Hostile.note, declaredLength: 0xFFFF_FFFF)
        let notes: [MIDIMessage] = [.noteOn(channel: 0, note: 0x3C, velocity: 0x40), .noteOff(channel: 0, note: 0x3C, velocity: 0x40)]
        for (bytes, expected) in [(cutNote, notes), (endless, notes + [.meta(.endOfTrack)])] {
            let track = try #require(try SMFReader().read(bytes).file.tracks.first)
            #expect(Hostile.messages(track) == expected)
            #expect(track.events.map(\.tick) == [UInt32]([0, 96, 96].prefix(expected.count)))
        }
    }

    @Test func sysexLongerThanItsChunkIsRefusedWithoutAllocating() {
        let bytes = Hostile.oneTrack([0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0x7F, 0x7E, 0xF7])
        let peakBefore = Hostile.peakResidentBytes()
        #expect(Hostile.readError(bytes) == .truncatedEvent(offset: 22, track: 1))
        // 0x0FFFFFFF bytes are 256 MiB: reserving them would show here.
        #expect(Hostile.peakResidentBytes() - peakBefore < 128 << 20)
    }

    @Test func headerDeclaring65535TracksReadsTheOnePresent() throws {
        let bytes = RawSMF.header(tracks: 65535) + RawSMF.track(Hostile.note)
        #expect(try SMFReader().read(bytes).file.tracks.count == 1)
    }

    @Test func moreTrackChunksThanAHeaderCanCountAreRefused() {
        let empty = RawSMF.chunk("MTrk", [])
        let bytes = RawSMF.header(tracks: 65535) + Array([[UInt8]](repeating: empty, count: 65536).joined())
        #expect(Hostile.readError(bytes) == .tooManyTracks(offset: 14 + 65535 * 8))
    }

    @Test func sixteenMaximumDeltasFitAndTheSeventeenthOverflows() throws {
        let longest = try SMFReader().read(Hostile.oneTrack(Hostile.maximumDeltas(16)))
        #expect(longest.file.tracks.first?.lengthInTicks == 16 * Track.maximumDelta)
        #expect(longest.file.tracks.first?.events.count == 17)
        #expect(longest.warnings.isEmpty)
        // The 17th event starts after one 7-byte and fifteen 6-byte events.
        #expect(Hostile.readError(Hostile.oneTrack(Hostile.maximumDeltas(17))) == .trackTooLong(offset: 22 + 7 + 15 * 6, track: 1))
    }

    @Test func maximumWarningsCapsTheListAndCountsTheRest() throws {
        let bytes = Hostile.oneTrack(Hostile.shortTempos(10_000))
        let mismatch = { (index: Int) in SMFWarning.metaLengthMismatch(type: 0x51, length: 2, offset: 22 + 6 * index, track: 1) }

        let byDefault = try SMFReader().read(bytes)
        #expect(byDefault.warnings == (0..<100).map(mismatch))
        #expect(byDefault.omittedWarningCount == 9_900)
        #expect(Hostile.eventCounts(byDefault) == [10_001])

        let three = try SMFReader(policy: SMFReadingPolicy(maximumWarnings: 3)).read(bytes)
        #expect(three.warnings == (0..<3).map(mismatch))
        #expect(three.omittedWarningCount == 9_997)
        #expect(three.file == byDefault.file)
    }

    /// 60 events per track are read one track after another; 100,000 (1.2 MB in all) on all cores.
    @Test(arguments: [60, 100_000])
    func warningsOfSeveralTracksAreCappedInFileOrder(perTrack: Int) throws {
        let bytes = RawSMF.file(tracks: [Hostile.shortTempos(perTrack), Hostile.shortTempos(perTrack)])
        let output = try SMFReader().read(bytes)
        let secondTrackStart = 14 + 8 + 6 * perTrack + 4 + 8
        let all =
            (0..<perTrack).map { SMFWarning.metaLengthMismatch(type: 0x51, length: 2, offset: 22 + 6 * $0, track: 1) }
            + (0..<perTrack).map { SMFWarning.metaLengthMismatch(type: 0x51, length: 2, offset: secondTrackStart + 6 * $0, track: 2) }
        #expect(output.warnings == Array(all.prefix(100)))
        #expect(output.omittedWarningCount == 2 * perTrack - 100)
        #expect(Hostile.eventCounts(output) == [perTrack + 1, perTrack + 1])
    }

    @Test func tracksReadInParallelReportTheFirstTracksError() {
        // 600 kB per track: over the 1 MiB that makes the reader use all cores.
        let notes = Array(Array(repeating: [0x00, 0x90, 0x3C, 0x40] as [UInt8], count: 150_000).joined())
        let bytes = RawSMF.file(tracks: [notes + [0x81, 0x81, 0x81, 0x81, 0x00], [0x00, 0x3C] + notes])
        #expect(Hostile.readError(bytes) == .variableLengthQuantityTooLong(offset: 22 + notes.count, track: 1))
        #expect(Hostile.readError(bytes, policy: .strict) == .variableLengthQuantityTooLong(offset: 22 + notes.count, track: 1))
    }

    @Test(
        "errors read as a user reads them",
        arguments: [
            (
                Hostile.oneTrack([0x00, 0x3C, 0x40]), SMFReadingPolicy.lenient,
                "data byte 0x3C with no status byte before it at byte 23 in track 1"
            ),
            (
                RawSMF.file(division: 0xE928, tracks: [Hostile.note]), .lenient,
                "header names an SMPTE frame rate of 23 frames per second; only 24, 25, 29.97 and 30 exist"
            ),
            (
                Hostile.oneTrack([0x00, 0xFF, 0x51, 0x03, 0x00, 0x00, 0x00]), .strict,
                "tempo of 0 at byte 22 in track 1 ignored (rejected by strict reading)"
            ),
            (
                Hostile.oneTrack(Hostile.note + [0x81, 0x81, 0x81, 0x81, 0x00]), .lenient,
                "variable-length number longer than 4 bytes at byte 30 in track 1"
            ),
        ])
    func errorDescription(bytes: [UInt8], policy: SMFReadingPolicy, expected: String) throws {
        let error = try #require(Hostile.readError(bytes, policy: policy))
        #expect(error.description == expected)
    }

    @Test(
        "warnings read as a user reads them",
        arguments: [
            (Hostile.oneTrack([0x00, 0x90, 0xBC, 0xC0]), "track 1 has 2 data bytes above 127 (first at byte 24); read as 7-bit values"),
            (
                Hostile.oneTrack([0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1]),
                "meta event 0x51 at byte 22 in track 1 has 2 data bytes, 3 expected; kept uninterpreted"
            ),
            (
                RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", Hostile.note + [0x00, 0x90], declaredLength: 100),
                "track 1 is cut off inside an event at byte 30; the events before it were kept"
            ),
        ])
    func warningDescription(bytes: [UInt8], expected: String) throws {
        let output = try SMFReader().read(bytes)
        #expect(output.warnings.last?.description == expected)
    }
}
