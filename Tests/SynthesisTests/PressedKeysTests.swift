import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// The keys a synthesizer says are down, as the messages sent to it leave them.
struct PressedKeysTests {
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)

    static func synthesizer() throws -> Synthesizer {
        try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required())
    }

    /// The keys down in a read, as key → channels.
    static func down(_ masks: [UInt64]) -> [Int: [Int]] {
        var keys: [Int: [Int]] = [:]
        for (key, mask) in masks.enumerated() where mask != 0 {
            keys[key] = (0..<64).filter { mask & (1 << UInt64($0)) != 0 }
        }
        return keys
    }

    static func noteOn(_ synthesizer: Synthesizer, _ key: UInt8, channel: Int, velocity: UInt8 = 100) {
        synthesizer.send(status: 0x90, channel: channel, data1: key, data2: velocity)
    }

    @Test("note on presses a key on its channel; note off, or note on at velocity 0, releases it")
    func notesPressAndRelease() throws {
        let synthesizer = try Self.synthesizer()
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
        Self.noteOn(synthesizer, 60, channel: 0)
        Self.noteOn(synthesizer, 64, channel: 1)
        Self.noteOn(synthesizer, 64, channel: 63)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [60: [0], 64: [1, 63]])
        synthesizer.send(status: 0x80, channel: 0, data1: 60, data2: 64)
        Self.noteOn(synthesizer, 64, channel: 1, velocity: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [64: [63]])
        // A data byte above 127 is masked, as FluidSynth gets it: 0xBC is key 60.
        synthesizer.send(status: 0x90, channel: 2, data1: 0xBC, data2: 90)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [60: [2], 64: [63]])
    }

    @Test("a note struck and released between two reads shows in the first, not the second")
    func shortNotesShowOnce() throws {
        let synthesizer = try Self.synthesizer()
        Self.noteOn(synthesizer, 38, channel: 9)
        synthesizer.send(status: 0x80, channel: 9, data1: 38, data2: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [38: [9]])
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
    }

    @Test("all notes off and all sound off release one channel's keys, no other's", arguments: [UInt8(123), 120])
    func channelModeMessagesRelease(_ controller: UInt8) throws {
        let synthesizer = try Self.synthesizer()
        for key: UInt8 in [60, 64, 67] { Self.noteOn(synthesizer, key, channel: 3) }
        Self.noteOn(synthesizer, 67, channel: 4)
        _ = synthesizer.pressedKeys.read()
        synthesizer.send(status: 0xB0, channel: 3, data1: controller, data2: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [67: [4]])
        // Any other controller leaves the keys down.
        synthesizer.send(status: 0xB0, channel: 4, data1: 7, data2: 100)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [67: [4]])
    }

    static func pedal(_ synthesizer: Synthesizer, _ value: UInt8, channel: Int) {
        synthesizer.send(status: 0xB0, channel: channel, data1: 64, data2: value)
    }

    @Test("a key released under its channel's sustain pedal shows until the pedal comes up")
    func sustainPedalHoldsReleasedKeys() throws {
        let synthesizer = try Self.synthesizer()
        Self.pedal(synthesizer, 127, channel: 0)
        Self.noteOn(synthesizer, 60, channel: 0)
        Self.noteOn(synthesizer, 64, channel: 1)
        synthesizer.send(status: 0x80, channel: 0, data1: 60, data2: 0)
        synthesizer.send(status: 0x80, channel: 1, data1: 64, data2: 0)
        // Channel 1 has no pedal down: its key comes up once it has shown for its strike.
        #expect(Self.down(synthesizer.pressedKeys.read()) == [60: [0], 64: [1]])
        #expect(Self.down(synthesizer.pressedKeys.read()) == [60: [0]])
        // A half-down pedal (below 64) is up, as FluidSynth reads it.
        Self.pedal(synthesizer, 63, channel: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
        // Pressed before the pedal, released after it: held too.
        Self.noteOn(synthesizer, 67, channel: 0)
        Self.pedal(synthesizer, 64, channel: 0)
        Self.noteOn(synthesizer, 67, channel: 0, velocity: 0)
        _ = synthesizer.pressedKeys.read()
        #expect(Self.down(synthesizer.pressedKeys.read()) == [67: [0]])
        // A note off for a key that is not down lights nothing, pedal or not.
        synthesizer.send(status: 0x80, channel: 0, data1: 90, data2: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()) == [67: [0]])
        // Reset all controllers lifts the pedal.
        synthesizer.send(status: 0xB0, channel: 0, data1: 121, data2: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
    }

    @Test("under the pedal, all notes off leaves the keys sounding; all sound off silences them")
    func channelModeMessagesUnderThePedal() throws {
        let synthesizer = try Self.synthesizer()
        Self.pedal(synthesizer, 127, channel: 2)
        Self.noteOn(synthesizer, 48, channel: 2)
        synthesizer.send(status: 0xB0, channel: 2, data1: 123, data2: 0)
        _ = synthesizer.pressedKeys.read()
        #expect(Self.down(synthesizer.pressedKeys.read()) == [48: [2]])
        synthesizer.send(status: 0xB0, channel: 2, data1: 120, data2: 0)
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
        // The pedal is still down: a key released now is held again.
        Self.noteOn(synthesizer, 50, channel: 2)
        synthesizer.send(status: 0x80, channel: 2, data1: 50, data2: 0)
        _ = synthesizer.pressedKeys.read()
        #expect(Self.down(synthesizer.pressedKeys.read()) == [50: [2]])
        synthesizer.reset()
        #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty)
    }

    @Test("reset, releasing every note and a GM System On leave no key down")
    func resetsReleaseEverything() throws {
        let synthesizer = try Self.synthesizer()
        let resets: [(String, (Synthesizer) -> Void)] = [
            ("reset()", { $0.reset() }),
            ("releaseAllNotes()", { $0.releaseAllNotes() }),
            (
                "GM System On",
                { synthesizer in
                    [0x7E, 0x7F, 0x09, 0x01].withUnsafeBufferPointer { synthesizer.sendSystemExclusive($0) }
                }
            ),
        ]
        for (name, reset) in resets {
            Self.noteOn(synthesizer, 60, channel: 0)
            Self.noteOn(synthesizer, 72, channel: 20)
            reset(synthesizer)
            #expect(Self.down(synthesizer.pressedKeys.read()).isEmpty, "after \(name)")
        }
    }

    /// Channel 1 holds C4–E4–G4 for 4 s; channel 2 plays D5 for the first second, then F5 to
    /// 3 s; a second track on MIDI port 2 holds A3 on its channel 1 (synthesizer channel 16)
    /// from 1 s to 4 s. 120 bpm, 480 ticks a quarter: 960 ticks a second.
    static func song() -> Song {
        var first = Track()
        first.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        first.append(.programChange(channel: 0, program: 19), atTick: 0)
        for key: UInt8 in [60, 64, 67] { first.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: 0) }
        first.append(.noteOn(channel: 1, note: 74, velocity: 90), atTick: 0)
        first.append(.noteOff(channel: 1, note: 74, velocity: 0), atTick: 960)
        first.append(.noteOn(channel: 1, note: 77, velocity: 90), atTick: 960)
        first.append(.noteOff(channel: 1, note: 77, velocity: 0), atTick: 2880)
        for key: UInt8 in [60, 64, 67] { first.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: 3840) }
        first.append(.meta(.endOfTrack), atTick: 3840)
        var second = Track()
        second.append(.meta(.port(1)), atTick: 0)
        second.append(.noteOn(channel: 0, note: 57, velocity: 80), atTick: 960)
        second.append(.noteOff(channel: 0, note: 57, velocity: 0), atTick: 3840)
        second.append(.meta(.endOfTrack), atTick: 3840)
        return Song(file: MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [first, second]))
    }

    static func render(_ sequencer: Sequencer, toSeconds seconds: Double) {
        let target = Int64(seconds * settings.sampleRate)
        var buffer = [Float](repeating: 0, count: 2 * 1024)
        while sequencer.position < target {
            let frames = Int(min(1024, target - sequencer.position))
            buffer.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
        }
    }

    @Test("playing a song: the keys down are the notes sounding, by channel and port")
    func playingFollowsTheSong() throws {
        let sequencer = Sequencer(song: Self.song(), synthesizer: try Self.synthesizer())
        let keys = sequencer.synthesizer.pressedKeys
        Self.render(sequencer, toSeconds: 0.5)
        #expect(Self.down(keys.read()) == [60: [0], 64: [0], 67: [0], 74: [1]])
        Self.render(sequencer, toSeconds: 1.5)
        #expect(Self.down(keys.read()) == [57: [16], 60: [0], 64: [0], 67: [0], 77: [1]])
        Self.render(sequencer, toSeconds: 3.5)
        #expect(Self.down(keys.read()) == [57: [16], 60: [0], 64: [0], 67: [0]])
        Self.render(sequencer, toSeconds: 4.5)
        #expect(Self.down(keys.read()).isEmpty)
    }

    @Test("a seek leaves no key of before it down; with chase notes, the notes held across it", arguments: [false, true])
    func seekLeavesTheRightKeysDown(chaseNotes: Bool) throws {
        let sequencer = Sequencer(song: Self.song(), synthesizer: try Self.synthesizer())
        let keys = sequencer.synthesizer.pressedKeys
        // Forwards, from the first notes, to 2 s: C–E–G, F5 and A3 are held across it.
        Self.render(sequencer, toSeconds: 0.5)
        sequencer.seek(toSeconds: 2, chaseNotes: chaseNotes)
        let held: [Int: [Int]] = [57: [16], 60: [0], 64: [0], 67: [0], 77: [1]]
        #expect(Self.down(keys.read()) == (chaseNotes ? held : [:]))
        // Backwards, to 0.5 s: C–E–G and D5.
        Self.render(sequencer, toSeconds: 3.5)
        sequencer.seek(toSeconds: 0.5, chaseNotes: chaseNotes)
        #expect(Self.down(keys.read()) == (chaseNotes ? [60: [0], 64: [0], 67: [0], 74: [1]] : [:]))
        // Just before the last notes end.
        sequencer.seek(toSeconds: 3.9, chaseNotes: chaseNotes)
        #expect(Self.down(keys.read()) == (chaseNotes ? [57: [16], 60: [0], 64: [0], 67: [0]] : [:]))
    }
}
