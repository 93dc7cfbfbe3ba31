import Foundation
import SMF
import Testing
@testable import Synthesis

/// A seek must leave the synthesizer as playing from the start would have.
struct SeekChaseTests {
    static let corpus = "/usr/share/games/openttd/baseset/openmsx"
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)

    /// Programs, pitch bends and every controller of all 64 channels.
    static func channelState(of synthesizer: Synthesizer) -> [[Int]] {
        (0..<Synthesizer.channelCount).map { channel in
            let program = synthesizer.program(channel: channel)
            return [program.bank, program.program, synthesizer.pitchBend(channel: channel)]
                + (0..<128).map { synthesizer.controller($0, channel: channel) }
        }
    }

    static func song(_ name: String) throws -> Song {
        Song(file: try SMFReader().read(path: corpus + "/" + name).file)
    }

    @Test(arguments: ["busy_schedule.mid", "5432gone_redfarn.mid", "flying_scotsman.mid", "ttsong_iii_imuh3.mid"])
    func seekingRestoresWhatPlayingWouldHaveSet(_ name: String) throws {
        let song = try Self.song(name)
        let soundFont = try TestSoundFont.required()
        for fraction in [0.1, 0.37, 0.8] {
            let target = Int64(song.duration * fraction * Self.settings.sampleRate)
            let played = Sequencer(song: song, synthesizer: try Synthesizer(settings: Self.settings, soundFontPath: soundFont))
            var buffer = [Float](repeating: 0, count: 2 * 4096)
            while played.position < target {
                let frames = Int(min(4096, target - played.position))
                buffer.withUnsafeMutableBufferPointer { played.render(into: $0.baseAddress!, frames: frames) }
            }
            let sought = Sequencer(song: song, synthesizer: try Synthesizer(settings: Self.settings, soundFontPath: soundFont))
            // Play a little first, so that the seek has state to undo.
            buffer.withUnsafeMutableBufferPointer { sought.render(into: $0.baseAddress!, frames: 4096) }
            sought.seek(toFrame: target)
            #expect(sought.position == target)
            let expected = Self.channelState(of: played.synthesizer)
            let actual = Self.channelState(of: sought.synthesizer)
            for channel in expected.indices where expected[channel] != actual[channel] {
                Issue.record("\(name) at \(fraction): channel \(channel + 1) differs: played \(expected[channel]) sought \(actual[channel])")
            }
        }
    }

    /// An organ chord held across the target: silent after a plain seek, sounding with chasing.
    @Test func chasingNotesStrikesHeldNotesAgain() throws {
        var track = Track()
        track.append(.programChange(channel: 0, program: 19), atTick: 0)
        for note: UInt8 in [60, 64, 67] { track.append(.noteOn(channel: 0, note: note, velocity: 100), atTick: 0) }
        for note: UInt8 in [60, 64, 67] { track.append(.noteOn(channel: 0, note: note, velocity: 0), atTick: 3840) }
        track.append(.meta(.endOfTrack), atTick: 3840)
        let song = Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
        for chase in [false, true] {
            let sequencer = Sequencer(song: song, synthesizer: try Synthesizer(settings: Self.settings, soundFontPath: try TestSoundFont.required()))
            sequencer.seek(toSeconds: 2, chaseNotes: chase)
            var buffer = [Float](repeating: 0, count: 2 * 4410)
            buffer.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: 4410) }
            let peak = buffer.map(abs).max()!
            #expect(chase ? peak > 0.01 : peak == 0, "chaseNotes \(chase): peak \(peak) in the 100 ms after the seek")
            #expect(sequencer.synthesizer.program(channel: 0).program == 19)
        }
    }
}
