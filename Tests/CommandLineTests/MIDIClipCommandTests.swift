import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

/// MIDI 2.0 Clip Files through the commands: `info` says what they are, `render` plays them as
/// the same song written as a Standard MIDI File with the values MIDI 1.0 gives them (the
/// reference, written by the project's own writer), and a folder takes them in.
struct MIDIClipCommandTests {
    typealias Clip = MIDIClipWriter

    /// A phrase in MIDI 2.0 messages: a bank and program, a 16-bit velocity, a 32-bit volume, a
    /// chord on strings, a 32-bit pitch bend, a GS reset in SysEx7 packets, drums on group 1.
    static let clip: [UInt8] = {
        var clip = Clip(ticksPerQuarterNote: 480)
        for packet in Clip.text(bank: 1, status: 2, "Clip Phrase") { clip.append(packet) }
        clip.append(after: 0, Clip.startOfClip)
        clip.append(after: 0, Clip.tempo(beatsPerMinute: 100))
        for packet in Clip.systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41]) { clip.append(after: 0, packet) }
        clip.append(after: 0, Clip.midi2(opcode: 0xC, channel: 0, 0, 1, data: 48 << 24 | 0 << 8 | 0))
        clip.append(after: 0, Clip.midi2(opcode: 0xB, channel: 0, 7, data: 0xC000_0000))
        for key: UInt8 in [60, 64, 67] { clip.append(after: 0, Clip.midi2(opcode: 0x9, channel: 0, key, data: 0xC800_0000)) }
        clip.append(after: 0, Clip.midi1(group: 1, 0x99, 36, 110))
        clip.append(after: 480, Clip.midi2(opcode: 0xE, channel: 0, 0, data: 0xA000_0000))
        clip.append(after: 480, Clip.midi1(group: 1, 0x99, 38, 90))
        for key: UInt8 in [60, 64, 67] { clip.append(after: 0, Clip.midi2(opcode: 0x8, channel: 0, key, data: 0)) }
        clip.append(after: 480, Clip.endOfClip)
        return clip.bytes
    }()

    /// The same phrase as MIDI 1.0 says it: the reference. `velocity` other than the clip's
    /// (0xC800 >> 9 = 100) makes a wrong one.
    static func reference(velocity: UInt8 = 100) -> [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.text(.trackName, Array("Clip Phrase".utf8))), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 600_000)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 1440)
        var strings = Track()
        strings.append(.meta(.port(0)), atTick: 0)
        strings.append(.systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]), atTick: 0)
        strings.append(.controlChange(channel: 0, controller: 0, value: 0), atTick: 0)
        strings.append(.controlChange(channel: 0, controller: 32, value: 0), atTick: 0)
        strings.append(.programChange(channel: 0, program: 48), atTick: 0)
        strings.append(.controlChange(channel: 0, controller: 7, value: 96), atTick: 0)
        for key: UInt8 in [60, 64, 67] { strings.append(.noteOn(channel: 0, note: key, velocity: velocity), atTick: 0) }
        strings.append(.pitchBend(channel: 0, value: 0x2800), atTick: 480)
        for key: UInt8 in [60, 64, 67] { strings.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: 960) }
        strings.append(.meta(.endOfTrack), atTick: 1440)
        var drums = Track()
        drums.append(.meta(.port(1)), atTick: 0)
        drums.append(.noteOn(channel: 9, note: 36, velocity: 110), atTick: 0)
        drums.append(.noteOn(channel: 9, note: 38, velocity: 90), atTick: 960)
        drums.append(.meta(.endOfTrack), atTick: 1440)
        return SMFWriter().encode(
            MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor, strings, drums]))
    }

    @Test("info names a clip a MIDI 2.0 clip, with its title, tracks and length; a folder with one lists it")
    func info() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Clips/phrase.midi2", Self.clip)
        let shown = try sandbox.run(["info", "Clips/phrase.midi2"])
        try #require(shown.succeeded, "\(shown)")
        #expect(shown.stdout.contains("Format     MIDI 2.0 clip, 3 tracks, 480 ticks per quarter note"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Title      Clip Phrase") && shown.stdout.contains("Duration   0:01.8"), "\(shown.stdout)")
        let folder = try sandbox.run(["info", "Clips", "--json"])
        #expect(folder.succeeded && folder.stdout.contains("\"kind\" : \"MIDI 2.0 clip\""), "\(folder)")
    }

    @Test("a clip renders as its song written in MIDI 1.0 does, to the sample; the song with another velocity does not")
    func rendersAsItsTranslation() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("phrase.midi2", Self.clip)
        try sandbox.write("reference.mid", Self.reference())
        try sandbox.write("wrong.mid", Self.reference(velocity: 60))
        let (clip, reference) = try GameFormatCommandTests.rendered(sandbox, "phrase.midi2", "reference.mid")
        let wrong = try GameFormatCommandTests.rendered(sandbox, "wrong.mid", "reference.mid").file
        #expect(clip.count > 44_100, "\(clip.count) samples")
        #expect(clip == reference, "the clip renders \(StemRenderTests.residualDecibels(clip, reference)) dB from its translation")
        #expect(StemRenderTests.residualDecibels(wrong, reference) > -40, "a wrong velocity must not pass for the reference")
    }
}
