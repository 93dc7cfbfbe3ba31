import TestSupport
import Testing

@testable import SMF

/// HMP files (Human Machine Interfaces'), written by the tests' HMPWriter, read into the MIDI they
/// stand for.
struct HMPReaderTests {
    /// An organ chord: C from 0, E from 60 ticks (a beat) to 90, C off at 120; a loop mark (CC
    /// 111, value 128) at 30 between them.
    static var chord: HMPWriter {
        var writer = HMPWriter(beatsPerMinute: 100)
        writer.tracks = [
            [(0, [0xFF, 0x03, 4] + Array("Tune".utf8)), (0, [0xFF, 0x2F, 0])],
            [
                (0, [0xC0, 19]), (0, [0x90, 60, 100]), (30, [0xB0, 111, 0x80]), (30, [0x90, 64, 90]), (30, [0x80, 64, 0]),
                (30, [0x80, 60, 0]), (0, [0xFF, 0x2F, 0]),
            ],
        ]
        return writer
    }

    @Test("HMP deltas are 7 bits a byte, lowest first, the last marked: 1 is 81, 127 FF, 255 7F 81, 65,537 01 00 84")
    func deltas() {
        #expect(HMPWriter.delta(1) == [0x81])
        #expect(HMPWriter.delta(127) == [0xFF])
        #expect(HMPWriter.delta(255) == [0x7F, 0x81])
        #expect(HMPWriter.delta(65_537) == [0x01, 0x00, 0x84])
    }

    @Test("each chunk a track after the header's tempo, at 60 ticks a quarter note; the driver's loop mark left out, its time kept")
    func chord() throws {
        let output = try SMFReader(policy: .strict).read(Self.chord.encode())
        #expect(output.file.kind == .hmp && output.file.format == .multipleTracksSynchronous)
        #expect(output.file.timebase == .musical(ticksPerQuarterNote: 60))
        #expect(output.file.tracks.count == 3)
        let tempo = output.file.tracks[0]
        #expect(tempo.events.map(tempo.message(of:)) == [.meta(.tempo(microsecondsPerQuarterNote: 600_000)), .meta(.endOfTrack)])
        let notes = output.file.tracks[2]
        let timed = notes.events.map { ($0.tick, notes.message(of: $0)) }
        let messages: [MIDIMessage] = timed.map(\.1)
        #expect(
            messages == [
                .programChange(channel: 0, program: 19), .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 90),
                .noteOff(channel: 0, note: 64, velocity: 0), .noteOff(channel: 0, note: 60, velocity: 0), .meta(.endOfTrack),
            ])
        let ticks: [UInt32] = timed.map(\.0)
        #expect(ticks == [0, 0, 60, 90, 120, 120])
        // 120 ticks at 100 bpm: 1.2 s.
        #expect(abs(Song(file: output.file).duration - 1.2) < 1e-9)
    }

    @Test(
        "a file cut inside a chunk keeps what came before, saying so; a byte that is no status ends its track, saying so; no tracks or no tempo is refused"
    )
    func leniency() throws {
        let whole = Self.chord.encode()
        let cut = try SMFReader().read(Array(whole.prefix(whole.count - 5)))
        #expect(cut.warnings.contains { if case .hmiCutOff = $0 { true } else { false } }, "\(cut.warnings)")
        #expect(cut.file.tracks[2].events.count >= 4)
        var unknown = Self.chord
        unknown.tracks[1].insert((0, [0x42]), at: 2)
        let stopped = try SMFReader().read(unknown.encode())
        #expect(stopped.warnings.contains { if case .hmiUnknownStatus(0x42, _) = $0 { true } else { false } }, "\(stopped.warnings)")
        var none = Self.chord
        none.tracks = []
        #expect(throws: SMFError.hmiWithoutTracks) { try SMFReader().read(none.encode()) }
        var still = Self.chord
        still.beatsPerMinute = 0
        #expect(throws: SMFError.hmiWithoutTempo) { try SMFReader().read(still.encode()) }
        #expect(throws: SMFError.self) { try SMFReader().read(Array(whole.prefix(500))) }
    }
}
