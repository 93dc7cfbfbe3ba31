import TestSupport
import Testing

@testable import SMF

/// HMI songs (Human Machine Interfaces' other format), written by the tests' HMIWriter, read into
/// the MIDI they stand for.
struct HMIReaderTests {
    /// An organ chord at 100 bpm: C struck at 0 for 120 ticks, E at 60 (running status) for 30; a
    /// driver event (FE 10: 2 bytes, a length of 2, as many, and 4 more) between them; a title.
    static var chord: HMIWriter {
        var writer = HMIWriter(beatsPerMinute: 100)
        writer.tracks = [
            [
                (0, [0xFF, 0x03, 4] + Array("Tune".utf8)), (0, [0xC0, 19]), (0, [0x90, 60, 100] + HMIWriter.quantity(120)),
                (30, [0xFE, 0x10, 0, 0, 2, 9, 9, 1, 2, 3, 4]), (30, [64, 90] + HMIWriter.quantity(30)), (60, [0xFF, 0x2F, 0]),
            ]
        ]
        return writer
    }

    @Test(
        "each track after the header's tempo, at 60 ticks a quarter note; a note's length made its note off; running status; the driver's events left out"
    )
    func chord() throws {
        let output = try SMFReader(policy: .strict).read(Self.chord.encode())
        #expect(output.file.kind == .hmi && output.file.timebase == .musical(ticksPerQuarterNote: 60))
        #expect(output.file.tracks.count == 2)
        let tempo = output.file.tracks[0]
        #expect(tempo.events.map(tempo.message(of:)) == [.meta(.tempo(microsecondsPerQuarterNote: 600_000)), .meta(.endOfTrack)])
        let notes = output.file.tracks[1]
        let messages: [MIDIMessage] = notes.events.map(notes.message(of:))
        let ticks: [UInt32] = notes.events.map(\.tick)
        #expect(
            messages == [
                .meta(MetaEvent(type: 0x03, data: Array("Tune".utf8)[...])), .programChange(channel: 0, program: 19),
                .noteOn(channel: 0, note: 60, velocity: 100),
                .noteOn(channel: 0, note: 64, velocity: 90), .noteOff(channel: 0, note: 64, velocity: 0), .noteOff(channel: 0, note: 60, velocity: 0),
                .meta(.endOfTrack),
            ])
        #expect(ticks == [0, 0, 0, 60, 90, 120, 120])
        #expect(abs(Song(file: output.file).duration - 1.2) < 1e-9)
    }

    @Test("a track without its end is read to it, saying so; no tracks or no tempo is refused; a header cut short too")
    func leniency() throws {
        var open = Self.chord
        open.tracks[0].removeLast()
        let read = try SMFReader().read(open.encode())
        #expect(read.warnings.contains { if case .hmiWithoutEnd = $0 { true } else { false } }, "\(read.warnings)")
        var none = Self.chord
        none.tracks = []
        #expect(throws: SMFError.hmiWithoutTracks) { try SMFReader().read(none.encode()) }
        var still = Self.chord
        still.beatsPerMinute = 0
        #expect(throws: SMFError.hmiWithoutTempo) { try SMFReader().read(still.encode()) }
        #expect(throws: SMFError.self) { try SMFReader().read(Array(Self.chord.encode().prefix(300))) }
    }
}
