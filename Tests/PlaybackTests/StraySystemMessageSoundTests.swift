import Playback
import SMF
import SoundComparison
import Testing

/// A song with a message a file may not hold (MIDI Time Code, clock… from a live
/// stream), or with running status used again after a system exclusive event,
/// sounds as the same song written correctly: the reader skips the message or
/// resumes the status, and the rest of the song plays. Rendered with
/// `SongRenderer` and TimGM6mb at the default settings, heard with `SoundComparison`.
@Suite struct StraySystemMessageSoundTests {
    /// What sits between the fourth and the fifth note of ``phrase(_:)``.
    struct Interruption: CustomTestStringConvertible, Sendable {
        let name: String
        /// The event's bytes after its delta time.
        let bytes: [UInt8]
        /// Whether the reference keeps the event and writes the fifth note's status, which
        /// the song leaves to running status; otherwise the reference leaves the event out.
        let referenceKeepsIt: Bool
        var testDescription: String { name }

        /// Every status byte a file may not hold, each with the data bytes it takes on a cable,
        /// then a system exclusive and an escape event, after which running status is used again.
        static let all: [Interruption] =
            [
                (0xF1, [0x23]), (0xF2, [0x10, 0x02]), (0xF3, [0x05]), (0xF4, []), (0xF5, []), (0xF6, []),
                (0xF8, []), (0xF9, []), (0xFA, []), (0xFB, []), (0xFC, []), (0xFD, []), (0xFE, []),
            ].map { status, data in
                Interruption(name: "stray 0x" + String(status, radix: 16, uppercase: true), bytes: [status] + data, referenceKeepsIt: false)
            } + [
                // 0x7D: the manufacturer ID for non-commercial use, which no sound module acts on.
                Interruption(name: "running status after system exclusive", bytes: [0xF0, 0x04, 0x7D, 0x01, 0x02, 0xF7], referenceKeepsIt: true),
                Interruption(name: "running status after an escape", bytes: [0xF7, 0x02, 0x7D, 0x01], referenceKeepsIt: true),
            ]
    }

    /// How ``phrase(_:)`` is written.
    enum Version {
        /// As the file came: the interruption, then the fifth note by running status.
        case asRecorded
        /// As it should have been written.
        case reference
        /// As recorded, the four notes after the interruption gone: what a reader that
        /// stopped at the interruption would play.
        case notesAfterDropped
    }

    /// A format-0 file: a piano plays eight notes a quarter second apart (480 ticks
    /// per quarter note at 120 bpm), each 200 ticks long; the interruption comes 16
    /// ticks after the fourth ends, 24 before the fifth starts. Every note event after
    /// the first is written with running status. End of Track at 2 s in every version.
    static func phrase(_ interruption: Interruption, _ version: Version) -> [UInt8] {
        let keys: [UInt8] = [60, 62, 64, 65, 67, 69, 71, 72]
        var events: [UInt8] = [0x00, 0xC0, 0x00, 0x00, 0x90, keys[0], 100, 0x81, 0x48, keys[0], 0]
        for key in keys[1..<4] { events += [0x28, key, 100, 0x81, 0x48, key, 0] }
        let hasInterruption = version != .reference || interruption.referenceKeepsIt
        events += hasInterruption ? [0x10] + interruption.bytes + [0x18] : [0x28]
        if version == .notesAfterDropped {
            // End of Track at 1920 ticks, 984 after the interruption's 936.
            return file(events.dropLast() + [0x87, 0x58, 0xFF, 0x2F, 0x00])
        }
        if version == .reference, interruption.referenceKeepsIt { events.append(0x90) }
        events += [keys[4], 100, 0x81, 0x48, keys[4], 0]
        for key in keys[5...] { events += [0x28, key, 100, 0x81, 0x48, key, 0] }
        return file(events + [0x28, 0xFF, 0x2F, 0x00])
    }

    static func file(_ events: [UInt8]) -> [UInt8] {
        let length = UInt32(events.count)
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + events
    }

    /// Reads `bytes` as `smfplay` does and renders them; returns the samples and the reader's warnings.
    static func render(_ bytes: [UInt8], with renderer: SongRenderer) throws -> (samples: [Float], warnings: [SMFWarning]) {
        let output = try SMFReader().read(bytes)
        let folder = try TemporaryFolder()
        let rendered = try SongRendererTests.render(Song(file: output.file), in: folder, with: renderer)
        return (rendered.samples, output.warnings)
    }

    @Test("the song plays on after the interruption as it would written correctly", arguments: Interruption.all)
    func playsTheRest(_ interruption: Interruption) throws {
        let renderer = try SongRendererTests.renderer()
        let recorded = try Self.render(Self.phrase(interruption, .asRecorded), with: renderer)
        let reference = try Self.render(Self.phrase(interruption, .reference), with: renderer)
        let dropped = try Self.render(Self.phrase(interruption, .notesAfterDropped), with: renderer)
        // The reader had something to forgive in the recorded file, nothing in the reference.
        #expect(recorded.warnings.count == 1, "\(recorded.warnings)")
        #expect(reference.warnings.isEmpty, "\(reference.warnings)")

        let sampleRate = renderer.synthesizer.configuration.sampleRate
        let mismatches = SoundComparison(candidate: recorded.samples, reference: reference.samples, sampleRate: sampleRate).mismatches()
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The check hears it when the notes after the interruption are missing.
        #expect(!SoundComparison(candidate: dropped.samples, reference: reference.samples, sampleRate: sampleRate).mismatches().isEmpty)
    }
}
