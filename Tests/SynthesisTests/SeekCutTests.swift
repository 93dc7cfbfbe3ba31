import SMF
import TestSupport
import Testing

@testable import Synthesis

/// A seek cuts what sounded before it: from its first frame, the audio is what a synthesizer sent
/// straight to the target renders. (FluidSynth's own reset left the voices in a release: a seek
/// back from a held flute note, as the player makes when the sound server comes back, began with
/// 20-40 ms of that note.)
struct SeekCutTests {
    static let settings = SynthesizerSettings(sampleRate: 44_100, gain: 0.2, reverb: nil, chorus: nil)

    /// A flute climbing a whole tone every half second, each note held 0.49 s.
    static let ladder = ChaseSongs.song { track in
        track.append(.programChange(channel: 0, program: 73), atTick: 0)
        for index in 0..<20 {
            let key = UInt8(60 + 2 * index)
            track.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: UInt32(index * 480))
            track.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: UInt32(index * 480 + 470))
        }
    }

    static func sequencer() throws -> Sequencer {
        Sequencer(song: ladder, synthesizer: try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required()))
    }

    static func render(_ sequencer: Sequencer, frames: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: 2 * frames)
        samples.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
        return samples
    }

    /// The root mean square of `a − b`, over that of `b`.
    static func relativeDifference(_ a: [Float], _ b: [Float]) -> Float {
        let difference = zip(a, b).reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let level = b.reduce(Float(0)) { $0 + $1 * $1 }
        return (difference / max(level, .leastNonzeroMagnitude)).squareRoot()
    }

    @Test(
        "played to 4.91 s in the player's buffers (its tenth note held) and sought back to 3.867 s, the first 8,184 frames are those of a synthesizer sought there at once"
    )
    func seekBackCutsTheNoteHeld() throws {
        let target = Int64(3.867 * Self.settings.sampleRate)
        let played = try Self.sequencer()
        var rendered = 0
        while rendered < Int(4.91 * Self.settings.sampleRate) {
            _ = Self.render(played, frames: 885)
            rendered += 885
        }
        let goneOn = try Self.sequencer()
        goneOn.seek(toFrame: Int64(rendered))
        let reference = try Self.sequencer()
        reference.seek(following: reference.plan(seekingTo: target, chaseNotes: true))
        let expected = Self.render(reference, frames: 8184)

        played.seek(following: played.plan(seekingTo: target, chaseNotes: true))
        let sought = Self.render(played, frames: 8184)
        #expect(Self.relativeDifference(sought, expected) < 0.01, "\(Self.relativeDifference(sought, expected))")
        // Its first 20 ms alone, where the note held before the seek sounded.
        let start = 2 * 882
        #expect(Self.relativeDifference(Array(sought[..<start]), Array(expected[..<start])) < 0.01)
        // The comparison tells one place of the ladder from another.
        let elsewhere = Self.render(goneOn, frames: 8184)
        #expect(Self.relativeDifference(elsewhere, expected) > 0.5)
    }
}
