import SMF
import Testing

/// Game music's loop marks, read as players of such files read them, and marks that make no loop.
@Suite struct SongLoopTests {
    /// One track at 480 ticks a quarter and 120 bpm (960 ticks a second), a note every quarter to
    /// tick 3840 (4 s), with the events given.
    static func song(_ marks: [(tick: UInt32, message: MIDIMessage)]) -> Song {
        var track = Track()
        var events: [(UInt32, MIDIMessage)] = marks.map { ($0.tick, $0.message) }
        for beat in 0..<8 {
            events.append((UInt32(beat) * 480, .noteOn(channel: 0, note: 60, velocity: 90)))
            events.append((UInt32(beat) * 480 + 400, .noteOff(channel: 0, note: 60, velocity: 0)))
        }
        for (tick, message) in events.sorted(by: { $0.0 < $1.0 }) { track.append(message, atTick: tick) }
        track.append(.meta(.endOfTrack), atTick: 3840)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    static func marker(_ text: String) -> MIDIMessage { .meta(.text(.marker, Array(text.utf8))) }

    @Test func controller111LoopsToTheEnd() {
        let finding = SongLoop.find(in: Self.song([(960, .controlChange(channel: 3, controller: 111, value: 0))]))
        #expect(finding.loop == SongLoop(startTick: 960, endTick: 3840, marking: .controller111))
        #expect(finding.problem == nil)
    }

    @Test func markersWinWhateverTheirCase() {
        let finding = SongLoop.find(
            in: Self.song([
                (480, .controlChange(channel: 0, controller: 111, value: 0)),
                (960, Self.marker(" LoopStart ")), (2880, Self.marker("loopend")),
            ]))
        #expect(finding.loop == SongLoop(startTick: 960, endTick: 2880, marking: .markers))
    }

    @Test(arguments: [("LOOP_START", "loop_end"), ("Loop Start", "Loop End"), ("loop-start", "LoopEnd")])
    func spellingVariantsAreMarks(_ start: String, _ end: String) {
        #expect(SongLoop.find(in: Self.song([(960, Self.marker(start)), (2880, Self.marker(end))])).loop?.endTick == 2880)
    }

    @Test func textEventsAndCuePointsMarkToo() {
        let finding = SongLoop.find(
            in: Self.song([(960, .meta(.text(.text, Array("loopStart".utf8)))), (2880, .meta(.text(.cuePoint, Array("loopEnd".utf8))))]))
        #expect(finding.loop == SongLoop(startTick: 960, endTick: 2880, marking: .markers))
    }

    @Test func aStartWithoutAnEndLoopsToTheEnd() {
        #expect(SongLoop.find(in: Self.song([(960, Self.marker("loopStart"))])).loop?.endTick == 3840)
    }

    @Test func anEndBeforeTheStartIsNoLoop() throws {
        let finding = SongLoop.find(in: Self.song([(2880, Self.marker("loopStart")), (960, Self.marker("loopEnd"))]))
        #expect(finding.loop == nil)
        #expect(try #require(finding.problem).contains("comes before its loopStart (0:03.00)"))
    }

    @Test func anEndWithoutAStartIsNoLoop() throws {
        let finding = SongLoop.find(in: Self.song([(960, Self.marker("loopEnd"))]))
        #expect(finding.loop == nil)
        #expect(try #require(finding.problem).contains("no loopStart"))
    }

    @Test func aLoopTooShortToHearIsNoLoop() throws {
        let finding = SongLoop.find(in: Self.song([(960, Self.marker("loopStart")), (990, Self.marker("loopEnd"))]))
        #expect(finding.loop == nil)
        #expect(try #require(finding.problem).contains("too short"))
    }

    @Test func aSongWithoutMarksHasNoLoopAndNoProblem() {
        let finding = SongLoop.find(in: Self.song([]))
        #expect(finding == SongLoop.Finding())
        #expect(finding.isUnmarked)
        #expect(finding.problemWhenLooping == SongLoop.noMarks)
    }

    @Test func theSummarySaysWhereTheLoopIsAndHowItIsMarked() throws {
        let summary = SongSummary(song: Self.song([(960, Self.marker("loopStart")), (1440, Self.marker("loopEnd"))]))
        let loop = try #require(summary.loop)
        #expect(loop.marking == "loopStart/loopEnd markers")
        #expect(abs(loop.startSeconds - 1) < 1e-9 && abs(loop.endSeconds - 1.5) < 1e-9, "\(loop)")
        #expect(summary.loopProblem == nil)
        #expect(SongSummary(song: Self.song([])).loopProblem == SongLoop.noMarks)
    }
}

/// Bars and beats from time signatures.
@Suite struct MeterMapTests {
    static func song(_ signatures: [(tick: UInt32, numerator: UInt8, denominatorPower: UInt8)]) -> Song {
        var track = Track()
        for signature in signatures {
            track.append(
                .meta(
                    .timeSignature(
                        numerator: signature.numerator, denominatorPower: signature.denominatorPower,
                        clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8)), atTick: signature.tick)
        }
        track.append(.meta(.endOfTrack), atTick: 20_000)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    @Test func fourFourUntilTheFirstSignature() throws {
        let meter = try #require(MeterMap(song: Self.song([])))
        #expect(meter.place(atTick: 0) == MeterMap.Place(bar: 1, beat: 1))
        #expect(meter.place(atTick: 480 * 5 + 10) == MeterMap.Place(bar: 2, beat: 2, tick: 10))
        #expect(meter.tick(at: MeterMap.Place(bar: 3, beat: 1)) == 480 * 8)
    }

    @Test func aChangeToSixEightCountsEighths() throws {
        // Two bars of 4/4, then 6/8: bar 3 starts at 3840, each bar 6 eighths of 240 ticks.
        let meter = try #require(MeterMap(song: Self.song([(0, 4, 2), (3840, 6, 3)])))
        #expect(meter.place(atTick: 3840 + 240 * 7) == MeterMap.Place(bar: 4, beat: 2))
        #expect(meter.tick(at: MeterMap.Place(bar: 4, beat: 2)) == 3840 + 240 * 7)
        #expect(meter.tick(at: MeterMap.Place(bar: 4, beat: 7)) == nil)
        #expect(meter.tick(at: MeterMap.Place(bar: 0, beat: 1)) == nil)
    }

    @Test func aSignatureInTheMiddleOfABarStartsANewBar() throws {
        let meter = try #require(MeterMap(song: Self.song([(480 * 6, 3, 2)])))
        #expect(meter.place(atTick: 480 * 6) == MeterMap.Place(bar: 3, beat: 1))
    }

    @Test func smpteTimedFilesHaveNoBars() {
        let file = MIDIFile(format: .singleTrack, timebase: .smpte(.fps25, ticksPerFrame: 40), tracks: [Track()])
        #expect(MeterMap(song: Song(file: file)) == nil)
    }
}

/// The loop conventions besides RPG Maker's controller 111 and the markers.
@Suite struct LoopConventionTests {
    static func controller(_ number: UInt8, _ value: UInt8 = 0, channel: UInt8 = 0) -> MIDIMessage {
        .controlChange(channel: channel, controller: number, value: value)
    }

    @Test("controllers 116/117 (EMIDI, XMI): the loop between them, the start's value the passes it asks for (0 for ever)")
    func emidi() {
        let finding = SongLoop.find(in: SongLoopTests.song([(960, Self.controller(116, 3)), (2880, Self.controller(117, 127))]))
        #expect(finding.loop == SongLoop(startTick: 960, endTick: 2880, marking: .emidi, markedPasses: 3))
        let forever = SongLoop.find(in: SongLoopTests.song([(480, Self.controller(116, 0))]))
        #expect(forever.loop == SongLoop(startTick: 480, endTick: 3840, marking: .emidi, markedPasses: 0))
    }

    @Test("controllers 118/119 (EMIDI track loops): a loop when every track's are at the same ticks; not when they differ")
    func emidiTrackLoops() throws {
        let alike = SongLoopTests.song([
            (960, Self.controller(118, 2, channel: 0)), (960, Self.controller(118, 2, channel: 1)),
            (2880, Self.controller(119, 127, channel: 0)), (2880, Self.controller(119, 127, channel: 1)),
        ])
        #expect(SongLoop.find(in: alike).loop == SongLoop(startTick: 960, endTick: 2880, marking: .emidiTrack, markedPasses: 2))
        let apart = SongLoop.find(in: SongLoopTests.song([(960, Self.controller(118, 0, channel: 0)), (1440, Self.controller(118, 0, channel: 1))]))
        #expect(apart.loop == nil)
        #expect(try #require(apart.problem).contains("different places in different tracks"))
    }

    @Test("controllers 2/4 (Touhou): a loop when each is sent exactly once, the start first; a breath controller played is no mark")
    func touhou() {
        let marked = SongLoop.find(in: SongLoopTests.song([(960, Self.controller(2)), (2880, Self.controller(4))]))
        #expect(marked.loop == SongLoop(startTick: 960, endTick: 2880, marking: .touhou))
        let played = SongLoopTests.song([(960, Self.controller(2, 40)), (1200, Self.controller(2, 90)), (2880, Self.controller(4))])
        #expect(SongLoop.find(in: played).isUnmarked)
        #expect(SongLoop.find(in: SongLoopTests.song([(2880, Self.controller(2)), (960, Self.controller(4))])).isUnmarked)
        #expect(SongLoop.find(in: SongLoopTests.song([(960, Self.controller(2))])).isUnmarked)
    }

    @Test("conventions in order: markers over 116/117 over 111 over 2/4")
    func precedence() {
        let all: [(tick: UInt32, message: MIDIMessage)] = [
            (480, Self.controller(111)), (720, Self.controller(2)), (960, Self.controller(116, 1)), (1440, SongLoopTests.marker("loopStart")),
            (2400, Self.controller(117, 127)), (2880, SongLoopTests.marker("loopEnd")), (3000, Self.controller(4)),
        ]
        #expect(SongLoop.find(in: SongLoopTests.song(all)).loop?.marking == .markers)
        #expect(SongLoop.find(in: SongLoopTests.song(all.filter { $0.tick != 1440 && $0.tick != 2880 })).loop?.marking == .emidi)
        #expect(
            SongLoop.find(in: SongLoopTests.song([(480, Self.controller(111)), (720, Self.controller(2)), (3000, Self.controller(4))])).loop?.marking
                == .controller111)
    }
}
