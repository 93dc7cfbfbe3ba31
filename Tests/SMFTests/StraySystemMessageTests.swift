import Testing

@testable import SMF

/// Files recorded from a live stream: system common and real-time messages in a
/// track, and running status used again after a system exclusive event. Read
/// with a warning, the rest of the song intact; strict reading refuses them.
///
/// Offsets as in `Hostile`: a one-track file's events start at byte 22, so the
/// event after ``Hostile/note`` starts at 30 and its status byte is at 31.
@Suite struct StraySystemMessageTests {
    /// Every status byte a file may not hold, with the data bytes it takes on a
    /// cable (MIDI 1.0 specification, tables V and VI).
    static let strayStatuses: [(UInt8, Int)] = [
        (0xF1, 1), (0xF2, 2), (0xF3, 1), (0xF4, 0), (0xF5, 0), (0xF6, 0),
        (0xF8, 0), (0xF9, 0), (0xFA, 0), (0xFB, 0), (0xFC, 0), (0xFD, 0), (0xFE, 0),
    ]

    /// After ``Hostile/note``: a running-status note off, then a note on channel 2
    /// and its running-status end. Put 48 ticks after the note off, it reads as `tail`.
    static func music(after delta: UInt32) -> [UInt8] {
        RawSMF.vlq(delta) + [0x3E, 0x50, 0x00, 0x91, 0x40, 0x60, 0x60, 0x40, 0x00]
    }

    static let tail: [MIDIMessage] = [
        .noteOn(channel: 0, note: 0x3C, velocity: 0x40), .noteOff(channel: 0, note: 0x3C, velocity: 0x40),
        .noteOff(channel: 0, note: 0x3E, velocity: 0x50), .noteOn(channel: 1, note: 0x40, velocity: 0x60),
        .noteOn(channel: 1, note: 0x40, velocity: 0), .meta(.endOfTrack),
    ]

    /// The song without anything stray: ``Hostile/note`` and the music 48 ticks later.
    static let clean = Hostile.oneTrack(Hostile.note + music(after: 48))

    @Test("a stray message among notes is skipped with its data bytes, the notes after it intact", arguments: strayStatuses)
    func skipsStrayMessage(status: UInt8, dataBytes: Int) throws {
        // 16 ticks to the stray message and 32 after it: its time is kept.
        let bytes = Hostile.oneTrack(Hostile.note + [0x10, status] + [0x23, 0x45].prefix(dataBytes) + Self.music(after: 32))
        let output = try SMFReader().read(bytes)
        let warning = SMFWarning.straySystemMessages(status: status, track: 1, count: 1, offset: 31)
        #expect(output.warnings == [warning])
        let track = try #require(output.file.tracks.first)
        #expect(Hostile.messages(track) == Self.tail)
        #expect(track.events.map(\.tick) == [0, 96, 144, 144, 240, 240])
        #expect(output.file == (try SMFReader().read(Self.clean)).file)
        #expect(Hostile.readError(bytes, policy: .strict) == .rejected(warning))
    }

    @Test("each stray message is named with its status byte", arguments: strayStatuses.map(\.0))
    func warningNamesTheMessage(status: UInt8) {
        let names: [UInt8: String] = [
            0xF1: "MIDI Time Code quarter frame", 0xF2: "song position pointer", 0xF3: "song select",
            0xF4: "undefined system common message", 0xF5: "undefined system common message", 0xF6: "tune request",
            0xF8: "timing clock", 0xF9: "undefined real-time message", 0xFA: "start message", 0xFB: "continue message",
            0xFC: "stop message", 0xFD: "undefined real-time message", 0xFE: "active sensing message",
        ]
        let name = names[status] ?? "?"
        let hexByte = "0x" + String(status, radix: 16, uppercase: true)
        #expect(
            SMFWarning.straySystemMessages(status: status, track: 3, count: 1, offset: 31).description
                == "track 3 has 1 \(name) (\(hexByte), first at byte 31), which a MIDI file may not hold; skipped")
        #expect(
            SMFWarning.straySystemMessages(status: status, track: 3, count: 2, offset: 31).description
                == "track 3 has 2 \(name)s (\(hexByte), first at byte 31), which a MIDI file may not hold; skipped")
    }

    /// A data byte is below 0x80: a byte above it after a stray status starts the
    /// next event's delta time, however many data bytes the status wanted.
    @Test(
        "a stray message cut short takes only the data bytes that are there",
        arguments: [
            [UInt8]([0xF2, 0x05]), [0xF2], [0xF1], [0xF3],
        ])
    func takesOnlyTheDataBytesThere(stray: [UInt8]) throws {
        // The delta after it is 128 ticks in two bytes, the first above 0x7F.
        let bytes = Hostile.oneTrack(Hostile.note + [0x10] + stray + [0x81, 0x00, 0x3E, 0x50])
        let output = try SMFReader().read(bytes)
        #expect(output.warnings == [.straySystemMessages(status: stray[0], track: 1, count: 1, offset: 31)])
        let expected = try SMFReader().read(Hostile.oneTrack(Hostile.note + RawSMF.vlq(144) + [0x3E, 0x50])).file
        #expect(output.file == expected)
    }

    @Test(
        "a stray message cut by the end of its chunk reads nothing of the next",
        arguments: [
            [UInt8]([0xF2, 0x05]), [0xF2], [0xF1], [0xF8],
        ])
    func strayMessageAtTheEndOfAChunk(stray: [UInt8]) throws {
        // The next chunk starts "MT", two bytes below 0x80 that a song position pointer would take.
        let bytes = RawSMF.header(tracks: 2) + RawSMF.track(Hostile.note + [0x10] + stray, endOfTrack: false) + RawSMF.track(Hostile.note)
        let output = try SMFReader().read(bytes)
        #expect(output.warnings == [.straySystemMessages(status: stray[0], track: 1, count: 1, offset: 31), .missingEndOfTrack(track: 1)])
        #expect(Hostile.eventCounts(output) == [2, 3])
        #expect(output.file.tracks[1] == (try SMFReader().read(Hostile.valid)).file.tracks[0])
    }

    @Test func strayMessageCutByTheEndOfTheFile() throws {
        let bytes = RawSMF.header(tracks: 1) + RawSMF.chunk("MTrk", Hostile.note + [0x10, 0xF2, 0x05], declaredLength: 100)
        let output = try SMFReader().read(bytes)
        #expect(
            output.warnings == [
                .trackPastEndOfFile(track: 1, declared: 100, available: 11),
                .straySystemMessages(status: 0xF2, track: 1, count: 1, offset: 31),
                .missingEndOfTrack(track: 1),
            ])
        #expect(Hostile.eventCounts(output) == [2])
    }

    /// A song with a MIDI Time Code quarter frame every tick: one warning, not 100,000.
    @Test func aTrackFullOfTimeCodeGivesOneWarning() throws {
        let frames = (0..<100_000).flatMap { index -> [UInt8] in [0x01, 0xF1, UInt8(index & 0x7F)] }
        let output = try SMFReader().read(Hostile.oneTrack(Hostile.note + frames + RawSMF.vlq(48) + [0x3E, 0x50]))
        #expect(output.warnings == [.straySystemMessages(status: 0xF1, track: 1, count: 100_000, offset: 31)])
        #expect(output.omittedWarningCount == 0)
        let track = try #require(output.file.tracks.first)
        #expect(track.events.count == 4)
        #expect(track.events[2].tick == 96 + 100_000 + 48)
    }

    @Test func strayMessagesOfSeveralKindsWarnOncePerKindInFileOrder() throws {
        let clock: [UInt8] = [0x00, 0xF8]
        let secondTrack = Hostile.note + clock + [0x00, 0xFE] + clock
        let bytes = RawSMF.file(tracks: [Hostile.note + [0x00, 0xF1, 0x10] + clock + [0x00, 0xF1, 0x20] + clock, secondTrack])
        let output = try SMFReader().read(bytes)
        // Track 2's events start after track 1's 18 bytes, its End of Track and the chunk header.
        let second = 22 + 18 + 4 + 8
        #expect(
            output.warnings == [
                .straySystemMessages(status: 0xF1, track: 1, count: 2, offset: 31),
                .straySystemMessages(status: 0xF8, track: 1, count: 2, offset: 34),
                .straySystemMessages(status: 0xF8, track: 2, count: 2, offset: second + 9),
                .straySystemMessages(status: 0xFE, track: 2, count: 1, offset: second + 11),
            ])
        #expect(Hostile.eventCounts(output) == [3, 3])
    }

    /// A track's events are at most ``Track/maximumDelta`` apart, or the writer could not
    /// write it: a message whose skipping would leave more is kept as an escape event.
    @Test(arguments: [(UInt32(0), false), (1, true), (0x10, true)])
    func strayMessageBeforeTheLongestDeltaIsKeptWhereSkippingItLeavesTooLongAGap(deltaBefore: UInt32, kept: Bool) throws {
        let bytes = Hostile.oneTrack(Hostile.note + RawSMF.vlq(deltaBefore) + [0xF2, 0x05, 0x06] + RawSMF.vlq(Track.maximumDelta) + [0x3E, 0x50])
        let output = try SMFReader().read(bytes)
        #expect(output.warnings == [.straySystemMessages(status: 0xF2, track: 1, count: 1, offset: 31)])
        let track = try #require(output.file.tracks.first)
        let escape: [MIDIMessage] = kept ? [.escapedBytes([0xF2, 0x05, 0x06])] : []
        #expect(
            Hostile.messages(track) == Array(Self.tail.prefix(2)) + escape + [.noteOff(channel: 0, note: 0x3E, velocity: 0x50), .meta(.endOfTrack)])
        #expect(track.events[track.events.count - 2].tick == 96 + deltaBefore + Track.maximumDelta)
        #expect(try SMFReader().read(SMFWriter().encode(output.file)).file == output.file)
    }

    @Test func skippedMessagesInARowKeepOnlyWhatTheGapNeeds() throws {
        let clocks = Array([[UInt8]](repeating: RawSMF.vlq(Track.maximumDelta / 2) + [0xF8], count: 5).joined())
        let bytes = Hostile.oneTrack(Hostile.note + clocks + [0x00, 0x3E, 0x50])
        let output = try SMFReader().read(bytes)
        #expect(output.warnings == [.straySystemMessages(status: 0xF8, track: 1, count: 5, offset: 34)])
        let track = try #require(output.file.tracks.first)
        // Of five clocks half the longest delta apart, the second and the fourth keep the time.
        #expect(Hostile.messages(track).filter { $0 == .escapedBytes([0xF8]) }.count == 2)
        #expect(zip(track.events, track.events.dropFirst()).allSatisfy { $1.tick - $0.tick <= Track.maximumDelta })
        #expect(try SMFReader().read(SMFWriter().encode(output.file)).file == output.file)
    }

    // MARK: Running status after system exclusive

    /// A note off by running status after `event`, which ends running status, and another after it.
    static func runningAfter(_ event: [UInt8]) -> [UInt8] {
        Hostile.note + [0x00] + event + [0x10, 0x3E, 0x50, 0x10, 0x40, 0x50]
    }

    @Test(
        "running status used again after a system exclusive or escape event",
        arguments: [
            [UInt8]([0xF0, 0x03, 0x7E, 0x09, 0xF7]), [0xF7, 0x02, 0xF3, 0x01], [0xF0, 0x00],
        ])
    func resumesRunningStatus(event: [UInt8]) throws {
        let bytes = Hostile.oneTrack(Self.runningAfter(event))
        let output = try SMFReader().read(bytes)
        // The first data byte after the event's delta time.
        let warning = SMFWarning.runningStatusAfterSystemExclusive(track: 1, count: 1, offset: 31 + event.count + 1)
        #expect(output.warnings == [warning])
        let explicit = Hostile.note + [0x00] + event + [0x10, 0x80, 0x3E, 0x50, 0x10, 0x40, 0x50]
        #expect(output.file == (try SMFReader().read(Hostile.oneTrack(explicit))).file)
        #expect(Hostile.readError(bytes, policy: .strict) == .rejected(warning))
    }

    @Test func runningStatusResumedAfterEachOfSeveralEventsGivesOneWarning() throws {
        let sysex: [UInt8] = [0x00, 0xF0, 0x01, 0xF7]
        // Two events in a row, then a program change whose status goes on after the last.
        let bytes = Hostile.oneTrack(Hostile.note + sysex + [0x10, 0x3E, 0x50] + sysex + sysex + [0x00, 0xC2, 0x05] + sysex + [0x00, 0x06])
        let output = try SMFReader().read(bytes)
        #expect(output.warnings == [.runningStatusAfterSystemExclusive(track: 1, count: 2, offset: 35)])
        let track = try #require(output.file.tracks.first)
        #expect(
            Hostile.messages(track).filter { $0.channel != nil } == [
                .noteOn(channel: 0, note: 0x3C, velocity: 0x40), .noteOff(channel: 0, note: 0x3C, velocity: 0x40),
                .noteOff(channel: 0, note: 0x3E, velocity: 0x50), .programChange(channel: 2, program: 5), .programChange(channel: 2, program: 6),
            ])
    }

    @Test func warningsReadAsAUserReadsThem() throws {
        let output = try SMFReader().read(Hostile.oneTrack(Self.runningAfter([0xF0, 0x01, 0xF7])))
        #expect(
            output.warnings.map(\.description) == [
                "track 1 has 1 event using running status after a system exclusive or escape event ended it (first at byte 35); read with the status before it"
            ])
        let strict = try #require(Hostile.readError(Hostile.oneTrack(Hostile.note + [0x00, 0xF1, 0x23]), policy: .strict))
        #expect(
            strict.description
                == "track 1 has 1 MIDI Time Code quarter frame (0xF1, first at byte 31), which a MIDI file may not hold; skipped (rejected by strict reading)"
        )
    }
}
