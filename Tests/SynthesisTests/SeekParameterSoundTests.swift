import SMF
import TestSupport
import Testing

@testable import Synthesis

/// After a seek, notes sound as they did when played: with the state FluidSynth keeps out of
/// sight, which data entry sets (pitch-bend range, tuning, generators, the parameter selected).
/// Compared by ear, sample by sample.
struct SeekParameterSoundTests {
    static let settings = SeekChaseTests.settings

    /// Renders `seconds` after a seek to `target` and after playing up to it, and returns both.
    static func renderAfter(_ target: Int64, _ song: Song, seconds: Double) throws -> (played: [Float], sought: [Float]) {
        let played = try SeekChaseTests.sequencer(song)
        SeekChaseTests.play(played, to: target)
        let sought = try SeekChaseTests.sequencer(song)
        SeekChaseTests.play(sought, to: 4096)
        sought.seek(toFrame: target)
        let frames = Int(seconds * settings.sampleRate)
        var audio = (played: [Float](repeating: 0, count: 2 * frames), sought: [Float](repeating: 0, count: 2 * frames))
        audio.played.withUnsafeMutableBufferPointer { played.render(into: $0.baseAddress!, frames: frames) }
        audio.sought.withUnsafeMutableBufferPointer { sought.render(into: $0.baseAddress!, frames: frames) }
        return audio
    }

    /// The target of the by-ear tests: on a block boundary, where FluidSynth renders alike after a seek.
    static let blockTarget = Int64(64 * 1500)

    /// Data entry messages on a channel before the target, then after it a data entry that
    /// relies on the parameter still selected, a full pitch bend and a note.
    static func dataEntrySong(_ before: [(controller: UInt8, value: UInt8)], probe: UInt8) -> Song {
        let afterTarget = ChaseSongs.tick(Double(blockTarget) / settings.sampleRate) + 10
        return ChaseSongs.song { track in
            track.append(.programChange(channel: 0, program: 80), atTick: 0)
            for (controller, value) in before { track.append(ChaseSongs.control(controller, value), atTick: 5) }
            track.append(ChaseSongs.control(6, probe), atTick: afterTarget)
            track.append(.pitchBend(channel: 0, value: 16_383), atTick: afterTarget)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: afterTarget)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: afterTarget + 300)
        }
    }

    static func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test(
        "after a seek, notes sound with the pitch-bend range, tuning and generators data entry set",
        arguments: [
            ("pitch-bend range 12", [(101, 0), (100, 0), (6, 12)], UInt8(0)),
            ("fine and coarse tuning", [(101, 0), (100, 1), (38, 100), (6, 80), (100, 2), (6, 70), (101, 127), (100, 127)], 0),
            ("tuning reset by reset all controllers, bend range kept", [(101, 0), (100, 2), (6, 76), (100, 0), (6, 7), (121, 0)], 0),
            ("SoundFont NRPN: filter cutoff", [(99, 120), (98, 8), (38, 0), (6, 60)], 0),
            ("NRPN selection left for the data entry after the target", [(99, 120), (98, 50), (98, 1)], 30),
            ("generator number reset by a data entry", [(99, 120), (98, 8), (6, 60), (98, 52)], 65),
            ("generator 0 selected by the data entry's reset", [(99, 120), (98, 8), (6, 60)], 65),
            ("RPN selected after an NRPN", [(99, 120), (98, 8), (101, 0), (100, 0), (6, 5)], 9),
            ("selection cleared by reset all controllers", [(101, 0), (100, 0), (121, 0)], 24),
        ] as [(String, [(UInt8, UInt8)], UInt8)])
    func hiddenParametersSoundAsPlayed(_ name: String, _ before: [(UInt8, UInt8)], _ probe: UInt8) throws {
        let song = Self.dataEntrySong(before.map { ($0.0, $0.1) }, probe: probe)
        let audio = try Self.renderAfter(Self.blockTarget, song, seconds: 0.5)
        #expect(audio.played.map(abs).max()! > 0.01, "\(name): the note is not heard")
        #expect(Self.largestDifference(audio.played, audio.sought) < 1e-5, "\(name)")
    }

    @Test("random runs of data entry, selections and resets sound the same after a seek as played")
    func randomDataEntrySoundsAsPlayed() throws {
        var random = SeededRandom(seed: 0x5EE4)
        let choices: [(controller: UInt8, values: [UInt8])] = [
            (6, [0, 5, 12, 64, 70, 100]), (38, [0, 1, 100]), (96, [0]), (121, [0]),
            (98, [0, 1, 8, 48, 51, 52, 99, 100, 101, 102, 127]), (99, [1, 120, 127]),
            (100, [0, 1, 2, 5, 127]), (101, [0, 127]),
        ]
        for run in 0..<24 {
            let before = (0..<Int.random(in: 1...14, using: &random)).map { _ in
                let choice = choices.randomElement(using: &random)!
                return (choice.controller, choice.values.randomElement(using: &random)!)
            }
            let song = Self.dataEntrySong(before, probe: [0, 20, 64, 100].randomElement(using: &random)!)
            let audio = try Self.renderAfter(Self.blockTarget, song, seconds: 0.3)
            #expect(Self.largestDifference(audio.played, audio.sought) < 1e-5, "run \(run): \(before)")
        }
    }
}
