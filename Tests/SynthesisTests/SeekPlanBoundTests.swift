import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// Following a seek plan, the audio thread's part of a seek, sends a number of messages bounded
/// by the channels, controllers, parameters and keys in use, not by the length of the song.
struct SeekPlanBoundTests {
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)

    /// 60 s in which 16 channels ramp volume, expression, modulation and pan, bend and press, and
    /// set their pitch-bend range, 137 times a second each (131,200 events), under a held chord.
    static let automation = ChaseSongs.song { track in
        for channel: UInt8 in 0..<16 { track.append(.noteOn(channel: channel, note: 48 + channel, velocity: 90), atTick: 0) }
        for step in 0..<8200 {
            let tick = UInt32(step * 7)
            let value = UInt8(step % 128)
            for channel: UInt8 in 0..<16 {
                let message: MIDIMessage =
                    switch step % 7 {
                    case 0: ChaseSongs.control(7, value, channel: channel)
                    case 1: ChaseSongs.control(11, value, channel: channel)
                    case 2: ChaseSongs.control(1, value, channel: channel)
                    case 3: ChaseSongs.control(10, value, channel: channel)
                    case 4: .pitchBend(channel: channel, value: UInt16(step * 3 % 16_384))
                    case 5: .channelPressure(channel: channel, pressure: value)
                    default: ChaseSongs.control([101, 100, 6][step / 7 % 3], [0, 0, 2 + value % 12][step / 7 % 3], channel: channel)
                    }
                track.append(message, atTick: tick)
            }
        }
    }

    static func sequencer() throws -> Sequencer {
        Sequencer(song: automation, synthesizer: try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required()))
    }

    @Test("a seek into a song of 131,200 controller events sends a few hundred messages, wherever it goes")
    func seekSendsBoundedMessages() throws {
        let sequencer = try Self.sequencer()
        let rate = Self.settings.sampleRate
        for seconds in [5.0, 30, 59] {
            let plan = sequencer.plan(seekingTo: Int64(seconds * rate), chaseNotes: true)
            let eventsBefore = plan.cursor
            let sent = MessageRecorder.messages(of: plan).count
            // Per channel: 4 controllers, bend, pressure, the pitch-bend range (4 messages) and
            // the data entry and selection controllers restored (10), one note.
            #expect(sent <= 16 * (4 + 2 + 4 + 10 + 1), "\(seconds) s: \(sent) messages for \(eventsBefore) events")
            #expect(eventsBefore > Int(seconds) * 2000)
        }
    }

    @Test("and those messages leave every channel as playing there did")
    func boundedSeekRestoresTheState() throws {
        let played = try Self.sequencer()
        let sought = try Self.sequencer()
        let target = Int64(59 * Self.settings.sampleRate)
        SeekChaseTests.play(played, to: target)
        sought.seek(toFrame: target, chaseNotes: true)
        #expect(SeekChaseTests.channelState(of: sought.synthesizer) == SeekChaseTests.channelState(of: played.synthesizer))
        #expect(sought.synthesizer.pressedKeys.read() == played.synthesizer.pressedKeys.read())
    }

    @Test("of the system exclusive messages, the last reset and the latest after it are sent, each once, the last master volume alone")
    func systemExclusiveIsBounded() throws {
        // Vendor messages (made-up, Roland's ID) numbered in two data bytes.
        func vendor(_ number: Int) -> [UInt8] { [0x41, 0x10, 0x42, 0x12, 0x10, UInt8(number >> 7), UInt8(number & 0x7F), 0xF7] }
        func masterVolume(_ value: UInt8) -> [UInt8] { [0x7F, 0x7F, 0x04, 0x01, 0x00, value, 0xF7] }
        let song = ChaseSongs.song { track in
            track.append(.systemExclusive(vendor(9999)), atTick: 0)
            track.append(.systemExclusive(ChaseSongs.gmSystemOn), atTick: 1)
            for number in 0..<1000 {
                track.append(.systemExclusive(vendor(number % 300)), atTick: UInt32(2 + number))
                track.append(.systemExclusive(masterVolume(UInt8(number % 128))), atTick: UInt32(2 + number))
            }
            track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 2000)
        }
        let sequencer = Sequencer(song: song, synthesizer: try Synthesizer(settings: Self.settings, soundFontPath: try TestSoundFont.required()))
        let sent = MessageRecorder.messages(of: sequencer.plan(seekingTo: Int64(2 * Self.settings.sampleRate))).systemExclusiveMessages
        #expect(sent.count == SystemExclusiveChase.limit + 1)
        #expect(sent.first == Array(ChaseSongs.gmSystemOn.dropLast()))
        // The latest: numbers 700–999, vendor messages 100–299 and the last master volume, in order.
        let expected = (745..<1000).map { vendor($0 % 300).dropLast() } + [masterVolume(UInt8(999 % 128)).dropLast()]
        #expect(Array(sent.dropFirst()) == expected.map { Array($0) })
    }
}
