import SMF
import Testing
import Thumbnails

/// The first pass: what a thumbnail needs to know before drawing.
@Suite("Song outline")
struct SongOutlineTests {
    static func stream(_ tracks: [Track], format: MIDIFileFormat = .multipleTracksSynchronous) throws -> SMFEventStream {
        try SMFEventStream(bytes: SMFWriter().encode(MIDIFile(format: format, timebase: .musical(ticksPerQuarterNote: 480), tracks: tracks)))
    }

    /// The notes paired from a stream's note-ons and note-offs, in the order they end.
    static func notes(of stream: SMFEventStream) throws -> [RollNote] {
        var notes: [RollNote] = []
        try stream.visitNotes { notes.append($0) }
        #expect(notes.count == (try SongOutline(stream: stream)).noteCount)
        return notes
    }

    @Test func learnsTheKeysTheTempoAndWhenTheLastNoteEnds() throws {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 960)
        conductor.append(.meta(.endOfTrack), atTick: 4800)
        var piano = Track()
        piano.append(.noteOn(channel: 0, note: 50, velocity: 80), atTick: 0)
        piano.append(.noteOff(channel: 0, note: 50, velocity: 0), atTick: 960)
        piano.append(.noteOn(channel: 3, note: 81, velocity: 80), atTick: 960)
        piano.append(.noteOn(channel: 3, note: 81, velocity: 0), atTick: 1440)
        piano.append(.meta(.endOfTrack), atTick: 1440)
        let outline = try SongOutline(stream: Self.stream([conductor, piano]))
        #expect(outline.pitchRange == 50...81)
        #expect(outline.noteCount == 2)
        // Two beats at 120 bpm, then one at 60 bpm; the conductor's End of Track, later, does not count.
        #expect(outline.duration == 2.0)
        #expect(outline.tempoMap.seconds(atTick: 960) == 1.0)
    }

    @Test func aSongWithoutNotesHasNoKeysAndNoLength() throws {
        var track = Track()
        track.append(.programChange(channel: 0, program: 5), atTick: 0)
        track.append(.meta(.endOfTrack), atTick: 960)
        let outline = try SongOutline(stream: Self.stream([track], format: .singleTrack))
        #expect(outline.pitchRange == nil && outline.noteCount == 0 && outline.duration == 0)
    }

    @Test func pairsNotesByChannelAndKeyRetriggersAndEndsHeldNotesWithTheirTrack() throws {
        var track = Track()
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
        track.append(.noteOn(channel: 1, note: 60, velocity: 50), atTick: 0)
        // The same key struck again before its note-off: the first note ends here.
        track.append(.noteOn(channel: 0, note: 60, velocity: 70), atTick: 100)
        track.append(.noteOff(channel: 0, note: 60, velocity: 64), atTick: 200)
        track.append(.noteOn(channel: 1, note: 60, velocity: 0), atTick: 300)
        // Never released: it lasts to the end of its track.
        track.append(.noteOn(channel: 2, note: 40, velocity: 1), atTick: 400)
        track.append(.noteOff(channel: 5, note: 90, velocity: 0), atTick: 450)
        track.append(.meta(.endOfTrack), atTick: 500)
        let notes = try Self.notes(of: Self.stream([track], format: .singleTrack))
        #expect(
            notes == [
                RollNote(channel: 0, pitch: 60, velocity: 100, startTick: 0, endTick: 100),
                RollNote(channel: 0, pitch: 60, velocity: 70, startTick: 100, endTick: 200),
                RollNote(channel: 1, pitch: 60, velocity: 50, startTick: 0, endTick: 300),
                RollNote(channel: 2, pitch: 40, velocity: 1, startTick: 400, endTick: 500),
            ])
        let outline = try SongOutline(stream: Self.stream([track], format: .singleTrack))
        #expect(outline.pitchRange == 40...60, "a note-off with no note-on is no note")
    }
}
