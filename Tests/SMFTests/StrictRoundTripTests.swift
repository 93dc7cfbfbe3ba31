import Testing

@testable import SMF

/// Whatever the reader keeps of a file, damaged or not, the writer writes a file that strict
/// reading accepts, with the same song: read leniently, write, read strictly.
enum StrictRoundTrip {
    /// What is wrong with writing `file` and reading it back strictly; nil when nothing is.
    static func problem(writing file: MIDIFile) -> String? {
        let writer = SMFWriter()
        let again: MIDIFile
        do {
            again = try SMFReader(policy: .strict).read(writer.encode(file)).file
        } catch {
            return "strict reading refuses the written file: \(error)"
        }
        if again != writer.written(file) { return "the written file reads back as another file than SMFWriter.written says" }
        let expectedFormat: MIDIFileFormat = file.format == .singleTrack && file.tracks.count > 1 ? .multipleTracksSynchronous : file.format
        if again.format != expectedFormat || again.timebase != file.timebase { return "another header: \(again.format), \(again.timebase)" }
        if again.tracks.count != max(file.tracks.count, 1) { return "\(again.tracks.count) tracks written of \(file.tracks.count)" }
        for (number, (track, written)) in zip(file.tracks, again.tracks).enumerated() {
            if song(of: written) != song(of: track) { return "track \(number + 1) plays another song" }
            if written.lengthInTicks != track.lengthInTicks {
                return "track \(number + 1) is \(written.lengthInTicks) ticks long, not \(track.lengthInTicks)"
            }
        }
        return nil
    }

    /// The song in a track: its messages (data bytes as played) at their ticks, but for what
    /// means nothing: End of Track (the track's length is compared on its own), meta events the
    /// reader keeps uninterpreted, and empty escape events.
    private static func song(of track: Track) -> [Timed] {
        track.events.compactMap { event in
            let message = track.message(of: event)
            switch message {
            case .meta(.endOfTrack), .meta(.tempo(microsecondsPerQuarterNote: 0)), .escapedBytes([]): return nil
            case .meta(.unknown(let type, _)) where MetaEvent.expectedLength(ofType: type) != nil: return nil
            default: return Timed(tick: event.tick, message: message)
            }
        }
    }

    private struct Timed: Equatable {
        var tick: UInt32
        var message: MIDIMessage
    }
}

@Suite struct StrictRoundTripTests {
    @Test("hostile files that read with warnings", arguments: HostileWarningCase.all)
    func hostileFile(_ hostile: HostileWarningCase) throws {
        let file = try SMFReader().read(hostile.bytes).file
        #expect(StrictRoundTrip.problem(writing: file) == nil)
    }

    /// Every prefix of a valid file, cut inside events, between them and inside chunk headers.
    @Test func everyPrefixOfAValidFile() {
        let bytes = SMFWriter().encode(BrokenFileTests.sampleFile())
        for length in 0...bytes.count {
            guard let file = try? SMFReader().read(Array(bytes.prefix(length))).file else { continue }
            let problem = StrictRoundTrip.problem(writing: file)
            #expect(problem == nil, "prefix of \(length) bytes: \(problem ?? "")")
        }
    }

    /// Kept as escape events, since skipping them would leave too long a gap.
    @Test("stray system messages", arguments: StraySystemMessageTests.strayStatuses.map(\.0))
    func strayMessages(_ status: UInt8) throws {
        let track = Hostile.note + [0x01, status] + StraySystemMessageTests.music(after: Track.maximumDelta)
        let file = try SMFReader().read(Hostile.oneTrack(track)).file
        #expect(StrictRoundTrip.problem(writing: file) == nil)
    }

    @Test func rmidFileWithABank() throws {
        let bytes = RMIDWriterTests.written().encode(song: RMIDWriterTests.song, soundBank: Array(RMIDWriterTests.bank))
        let file = try SMFReader().read(bytes).file
        #expect(file.embeddedSoundBank != nil)
        #expect(StrictRoundTrip.problem(writing: file) == nil)
    }

}
