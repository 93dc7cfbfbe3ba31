import Testing

@testable import SMF

struct TempoMapTests {
    /// A format-1 file whose tempo changes sit in the second and third tracks, not the first.
    private func fileWithTempoInLaterTracks() -> MIDIFile {
        var first = Track()
        first.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        first.append(.noteOn(channel: 0, note: 60, velocity: 0), atTick: 1920)
        var second = Track()
        second.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 480)
        var third = Track()
        third.append(.meta(.tempo(microsecondsPerQuarterNote: 250_000)), atTick: 960)
        return MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [first, second, third])
    }

    @Test func convertsTicksToSecondsAcrossTempoChangesInAnyTrack() {
        let song = Song(file: fileWithTempoInLaterTracks())
        // 1 beat at 120 bpm (0.5 s), 1 beat at 60 bpm (1 s), 2 beats at 240 bpm (0.5 s).
        #expect(song.tempoMap.seconds(atTick: 480) == 0.5)
        #expect(song.tempoMap.seconds(atTick: 960) == 1.5)
        #expect(song.tempoMap.seconds(atTick: 1920) == 2.0)
        #expect(song.duration == 2.0)
        for tick: UInt64 in [0, 1, 479, 480, 700, 960, 1500, 1920] {
            #expect(song.tempoMap.tick(atSeconds: song.tempoMap.seconds(atTick: tick)) == tick)
        }
    }

    @Test func lastTempoAtTheSameTickWins() {
        var track = Track()
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 0)
        track.append(.meta(.tempo(microsecondsPerQuarterNote: 2_000_000)), atTick: 0)
        track.append(.meta(.endOfTrack), atTick: 96)
        let song = Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track]))
        #expect(song.tempoMap.segments.count == 1)
        #expect(song.duration == 2.0)
    }

    @Test func playsFormat2PatternsOneAfterAnother() {
        var first = Track()
        first.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        first.append(.meta(.endOfTrack), atTick: 480)
        var second = Track()
        second.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 0)
        second.append(.noteOn(channel: 0, note: 62, velocity: 90), atTick: 0)
        second.append(.meta(.endOfTrack), atTick: 480)
        let song = Song(file: MIDIFile(format: .multipleTracksAsynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [first, second]))
        #expect(song.timeline.trackStartTicks == [0, 480])
        #expect(song.duration == 1.5)
        let merged = song.mergedEvents()
        #expect(merged.map(\.tick) == [0, 480, 480, 480, 960])
        #expect(merged.map(\.track) == [0, 0, 1, 1, 1])
        #expect(merged.map(\.seconds) == [0, 0.5, 0.5, 0.5, 1.5])
    }

    @Test func mergesTracksStablyByTickThenTrackThenFileOrder() {
        var tracks = [Track(), Track(), Track()]
        tracks[2].append(.controlChange(channel: 2, controller: 7, value: 1), atTick: 0)
        tracks[2].append(.controlChange(channel: 2, controller: 7, value: 2), atTick: 0)
        tracks[1].append(.controlChange(channel: 1, controller: 7, value: 3), atTick: 0)
        tracks[0].append(.controlChange(channel: 0, controller: 7, value: 4), atTick: 10)
        tracks[1].append(.controlChange(channel: 1, controller: 7, value: 5), atTick: 10)
        let song = Song(file: MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 96), tracks: tracks))
        let values = song.mergedEvents().map { event -> UInt8 in event.event.data2 }
        #expect(values == [3, 1, 2, 4, 5])
    }
}
