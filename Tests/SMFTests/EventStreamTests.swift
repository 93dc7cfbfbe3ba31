import Foundation
import SystemPackage
import Testing

@testable import SMF

/// `SMFEventStream` walks a file without keeping it: it must see exactly what
/// `SMFReader` keeps (channel messages, tempo changes, track ends, on the same
/// time line) and fail exactly where and how the reader fails.
@Suite("SMFEventStream")
struct EventStreamTests {
    /// Everything a stream visits, in order.
    struct Visits: SMFEventVisitor, Equatable {
        enum Visit: Equatable {
            case channel(TrackEvent, tick: UInt64)
            case tempo(UInt32, tick: UInt64)
            case trackEnd(tick: UInt64)
        }

        var visits: [Visit] = []

        mutating func visitChannelMessage(_ event: TrackEvent, atTick tick: UInt64) { visits.append(.channel(event, tick: tick)) }
        mutating func visitTempo(microsecondsPerQuarterNote: UInt32, atTick tick: UInt64) {
            visits.append(.tempo(microsecondsPerQuarterNote, tick: tick))
        }
        mutating func visitTrackEnd(atTick tick: UInt64) { visits.append(.trackEnd(tick: tick)) }

        /// What a stream must visit for a file the reader read, worked out from the reader's tracks.
        init(expectedFrom file: MIDIFile) {
            let timeline = Timeline(file: file)
            for (track, start) in zip(file.tracks, timeline.trackStartTicks) {
                for event in track.events {
                    let tick = start + UInt64(event.tick)
                    if event.isChannelMessage {
                        visits.append(.channel(event, tick: tick))
                    } else if case .meta(.tempo(let tempo)) = track.message(of: event), tempo != 0 {
                        visits.append(.tempo(tempo, tick: tick))
                    }
                }
                visits.append(.trackEnd(tick: start + UInt64(track.lengthInTicks)))
            }
        }

        init() {}

        var tempoChanges: [(tick: UInt64, microsecondsPerQuarterNote: UInt32)] {
            visits.compactMap { if case .tempo(let tempo, let tick) = $0 { (tick, tempo) } else { nil } }
        }
    }

    /// What reading `bytes` gives: the reader's visits or its error, and the stream's.
    static func outcomes(_ bytes: [UInt8], policy: SMFReadingPolicy = .lenient) -> (
        reader: Result<Visits, SMFError>, stream: Result<Visits, SMFError>
    ) {
        let reader = Result { () throws(SMFError) -> Visits in Visits(expectedFrom: try SMFReader(policy: policy).read(bytes).file) }
        let stream = Result { () throws(SMFError) -> Visits in
            var visits = Visits()
            try SMFEventStream(bytes: bytes, policy: policy).visit(&visits)
            return visits
        }
        return (reader, stream)
    }

    @Test func visitsWhatTheReaderKeepsAndBuildsTheSameTempoMap() throws {
        let file = BrokenFileTests.sampleFile()
        let bytes = SMFWriter().encode(file)
        let (reader, stream) = Self.outcomes(bytes)
        let visits = try stream.get()
        #expect(visits == (try reader.get()))
        #expect(visits.tempoChanges.count == 2)
        let song = Song(file: file)
        #expect(TempoMap(timebase: file.timebase, tempoChanges: visits.tempoChanges) == song.tempoMap)
        let header = try SMFEventStream(bytes: bytes)
        #expect(header.format == file.format && header.timebase == file.timebase)
    }

    @Test func placesFormat2PatternsOneAfterAnother() throws {
        var first = Track()
        first.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        first.append(.noteOn(channel: 0, note: 60, velocity: 0), atTick: 960)
        var second = Track()
        second.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 0)
        second.append(.noteOn(channel: 1, note: 64, velocity: 90), atTick: 480)
        second.append(.meta(.endOfTrack), atTick: 960)
        let file = MIDIFile(format: .multipleTracksAsynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [first, second])
        var visits = Visits()
        try SMFEventStream(bytes: SMFWriter().encode(file)).visit(&visits)
        let ticks = visits.visits.map { visit -> UInt64 in
            switch visit {
            case .channel(_, let tick), .tempo(_, let tick), .trackEnd(let tick): tick
            }
        }
        #expect(ticks == [0, 960, 960, 960, 1440, 1920])
        #expect(visits == Visits(expectedFrom: file))
    }

    /// Every song of the openttd-openmsx corpus and of the demo library.
    @Test func realFilesVisitWhatTheReaderKeeps() throws {
        let folders = ["/usr/share/games/openttd/baseset/openmsx", DemoLibraryTests.library.path]
        var compared = 0
        for folder in folders {
            let enumerator = try #require(FileManager.default.enumerator(atPath: folder), "\(folder) is missing")
            for case let name as String in enumerator where name.hasSuffix(".mid") {
                let path = folder + "/" + name
                let expected = Visits(expectedFrom: try SMFReader().read(path: FilePath(path)).file)
                var visits = Visits()
                try SMFEventStream(path: FilePath(path)).visit(&visits)
                #expect(visits == expected, "\(path)")
                compared += 1
            }
        }
        #expect(compared >= 31 + 7, "openmsx (31 songs, Debian package openttd-openmsx) and the demo library (7)")
    }

    @Test(arguments: HostileErrorCase.all)
    func refusesWhatTheReaderRefusesWithItsError(_ hostile: HostileErrorCase) {
        let (_, stream) = Self.outcomes(hostile.bytes)
        #expect(throws: hostile.error) { try stream.get() }
    }

    @Test(arguments: HostileWarningCase.all)
    func readsWhatTheReaderReadsWithWarnings(_ hostile: HostileWarningCase) throws {
        let (reader, stream) = Self.outcomes(hostile.bytes)
        #expect(try stream.get() == reader.get())
        // A strict stream stops at the first warning, as the strict reader does.
        let strict = Self.outcomes(hostile.bytes, policy: .strict)
        #expect(throws: SMFError.rejected(hostile.warnings[0])) { try strict.stream.get() }
    }

    @Test func everyPrefixOfAFileGivesTheReadersOutcome() {
        let bytes = SMFWriter().encode(BrokenFileTests.sampleFile())
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            for policy in [SMFReadingPolicy.lenient, .strict] {
                let (reader, stream) = Self.outcomes(prefix, policy: policy)
                #expect(stream == reader, "prefix of \(length) bytes, strict: \(policy.rejectsWarnings)")
            }
        }
    }

    @Test func namesTheFileItCannotRead() {
        #expect(throws: SMFFileError.unreadable(path: "/nonexistent/song.mid", reason: "no such file or directory")) {
            try SMFEventStream(path: "/nonexistent/song.mid")
        }
    }
}
