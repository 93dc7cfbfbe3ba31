import SMF
import Testing
import Thumbnails

@testable import TerminalUI

/// The roll of `info --roll`: how long a row is, which rows a note covers, where it goes across.
@Suite("Keyboard roll")
struct KeyboardRollTests {
    /// A song of `notes` (channel, key, start and end in seconds) at 120 bpm, 480 ticks a quarter
    /// note (960 ticks a second), each channel's notes on a track of its own.
    static func outlineAndStream(_ notes: [(channel: UInt8, key: UInt8, start: Double, end: Double)]) throws -> (SongOutline, SMFEventStream) {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0)
        var tracks = [conductor]
        for channel in Set(notes.map(\.channel)).sorted() {
            var events: [(tick: UInt32, order: Int, message: MIDIMessage)] = []
            for note in notes where note.channel == channel {
                events.append((UInt32(note.start * 960), 1, .noteOn(channel: channel, note: note.key, velocity: 100)))
                events.append((UInt32(note.end * 960), 0, .noteOff(channel: channel, note: note.key, velocity: 0)))
            }
            var track = Track()
            for event in events.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) { track.append(event.message, atTick: event.tick) }
            track.append(.meta(.endOfTrack), atTick: events.map(\.tick).max() ?? 0)
            tracks.append(track)
        }
        let bytes = SMFWriter().encode(MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: tracks))
        let stream = try SMFEventStream(bytes: bytes)
        return (try SongOutline(stream: stream), stream)
    }

    static func roll(_ notes: [(channel: UInt8, key: UInt8, start: Double, end: Double)], width: Int = 77, maximumRows: Int = 48) throws
        -> KeyboardRoll
    {
        let (outline, stream) = try outlineAndStream(notes)
        var roll = try #require(KeyboardRoll(outline: outline, width: width, maximumRows: maximumRows))
        try stream.visitNotes { roll.add($0) }
        return roll
    }

    @Test("a row is the shortest slice of 0.1, 0.2, 0.5, 1, 2, 5… seconds that fits the song in the rows allowed")
    func sliceFitsTheSong() throws {
        let cases: [(seconds: Double, maximumRows: Int, slice: Double, rows: Int)] = [
            (4, 48, 0.1, 40), (4.8, 48, 0.1, 48), (4.9, 48, 0.2, 25), (100, 48, 5, 20), (4, 10, 0.5, 8), (4, 1, 5, 1),
        ]
        for (seconds, maximumRows, slice, rows) in cases {
            let roll = try Self.roll([(0, 60, 0, seconds)], maximumRows: maximumRows)
            #expect(
                roll.slice == slice && roll.sounding.count == rows, "\(seconds) s in \(maximumRows) rows: \(roll.slice) s × \(roll.sounding.count)")
        }
    }

    @Test("a note covers the rows of the slices it sounds in: at least one, and not the row its end starts")
    func notesCoverTheirRows() throws {
        let roll = try Self.roll([(0, 60, 0, 1), (1, 64, 0.55, 0.56), (0, 67, 1, 2), (9, 36, 0.5, 1.5)])
        #expect(roll.slice == 0.1 && roll.sounding.count == 20)
        func rows(of key: Int) -> [Int] { roll.sounding.indices.filter { roll.sounding[$0][key] != 0 } }
        #expect(rows(of: 60) == Array(0..<10))
        #expect(rows(of: 64) == [5])
        #expect(rows(of: 67) == Array(10..<20))
        // Drums are marks where they start.
        #expect(rows(of: 36) == [5])
        #expect(roll.sounding[5][36] == 1 << 9 && roll.sounding[5][64] == 1 << 1)
    }

    @Test("the lines: the keyboard under the rows' time column, then one line per row, its notes under their keys")
    func lines() throws {
        let roll = try Self.roll([(0, 60, 0, 0.5), (1, 61, 0.5, 1)])
        let lines = roll.lines(indent: "  ", colours: false)
        #expect(lines.count == 3 + 10)
        #expect(lines[0] == "          █ █ ▕ █ █ █ ▕")
        #expect(lines[2] == "         C4")
        #expect(lines[3] == "  0:00.0 █")
        #expect(lines[7] == "  0:00.4 █")
        #expect(lines[8] == "  0:00.5  █")
        #expect(lines[12] == "  0:00.9  █")
    }
}
