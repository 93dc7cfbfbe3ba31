import SMF
import Testing

@testable import Thumbnails

/// The rasterizer: notes become bars where the geometry says, in their channel's colour.
@Suite("Piano roll")
struct PianoRollTests {
    /// Two beats at 120 bpm then two at 60 bpm: tick 960 is at 1 s, tick 1920 at 3 s.
    static func song() throws -> SMFEventStream {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 960)
        conductor.append(.meta(.endOfTrack), atTick: 1920)
        var piano = Track()
        piano.append(.noteOn(channel: 0, note: 60, velocity: 127), atTick: 0)
        piano.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 960)
        piano.append(.noteOn(channel: 0, note: 70, velocity: 127), atTick: 960)
        piano.append(.noteOff(channel: 0, note: 70, velocity: 0), atTick: 1920)
        piano.append(.meta(.endOfTrack), atTick: 1920)
        return try SMFEventStream(
            bytes: SMFWriter().encode(
                MIDIFile(
                    format: .multipleTracksSynchronous,
                    timebase: .musical(ticksPerQuarterNote: 480),
                    tracks: [conductor, piano])))
    }

    @Test func drawsEachNoteWhereTheGeometryPutsItAndNowhereElse() throws {
        let stream = try Self.song()
        let outline = try SongOutline(stream: stream)
        let image = try PianoRoll.image(of: stream, outline: outline, width: 90, height: 60)
        let geometry = PianoRollGeometry(outline: outline, width: 90, height: 60)
        #expect(geometry.pitches == 58...72)
        let colour = ChannelPalette.colour(channel: 0, velocity: 127)
        // Seconds, not ticks: the first note fills the first third, the second the rest, each
        // but its last column and its key's last row (four rows a key here), a gap to the next.
        #expect(geometry.rows(ofPitch: 60).count == 4 && geometry.rows(ofPitch: 70).count == 4)
        let first = (columns: 0..<29, rows: geometry.rows(ofPitch: 60).dropLast())
        let second = (columns: 30..<89, rows: geometry.rows(ofPitch: 70).dropLast())
        for y in 0..<60 {
            for x in 0..<90 {
                let inNote = (first.columns.contains(x) && first.rows.contains(y)) || (second.columns.contains(x) && second.rows.contains(y))
                if inNote {
                    #expect(image[x, y] == colour, "(\(x), \(y)) is in a note")
                } else {
                    #expect(image[x, y] != colour, "(\(x), \(y)) is not in a note")
                }
            }
        }
    }

    @Test func rowsOfBlackKeysAreShadedWhenEachKeyHasRoomForIt() throws {
        let stream = try Self.song()
        let outline = try SongOutline(stream: stream)
        let roll = PianoRoll(outline: outline, width: 10, height: 30)
        for pitch in roll.geometry.pitches {
            let shade = ChannelPalette.background(ofPitch: pitch)
            for y in roll.geometry.rows(ofPitch: pitch) { #expect(roll.image[5, y] == shade, "key \(pitch)") }
        }
        // One row a key or less: no stripes.
        let flat = PianoRoll(outline: outline, width: 10, height: 15)
        #expect((0..<15).allSatisfy { flat.image[5, $0] == ChannelPalette.background })
    }
}
