import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// With chase notes, a seek strikes again exactly the notes the synthesizer would be sounding at
/// the target had it played there: held keys, and keys let go under a sustain pedal still down;
/// not notes that all notes off, all sound off or a reset silenced.
struct ChaseNotesTests {
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)
    static let sampleRate = settings.sampleRate

    static func sequencer(_ song: Song) throws -> Sequencer {
        Sequencer(song: song, synthesizer: try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required()))
    }

    /// Renders `seconds` and returns the samples.
    static func render(_ sequencer: Sequencer, seconds: Double) -> [Float] {
        let frames = Int(seconds * sampleRate)
        var samples = [Float](repeating: 0, count: 2 * frames)
        samples.withUnsafeMutableBufferPointer { sequencer.render(into: $0.baseAddress!, frames: frames) }
        return samples
    }

    static func peak(_ samples: some Collection<Float>) -> Float {
        samples.reduce(0) { max($0, abs($1)) }
    }

    /// An organ note from 0 s, something at 1 s, and the next event at 12 s, as in the audit's
    /// `cc123.mid`; a track on port 2 holds a note the same way on its channel 1.
    static func organ(silencedBy silencer: [MIDIMessage]) -> Song {
        ChaseSongs.song { track in
            track.append(.programChange(channel: 0, program: 19), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            for message in silencer { track.append(message, atTick: ChaseSongs.tick(1)) }
            track.append(.noteOn(channel: 0, note: 72, velocity: 100), atTick: ChaseSongs.tick(12))
            track.append(.noteOff(channel: 0, note: 72, velocity: 0), atTick: ChaseSongs.tick(12.5))
        }
    }

    static let silencers: [(name: String, messages: [MIDIMessage])] = [
        ("all notes off", [ChaseSongs.control(123, 0)]),
        ("all sound off", [ChaseSongs.control(120, 0)]),
        ("all sound off under the pedal", [ChaseSongs.control(64, 127), ChaseSongs.control(120, 0)]),
        ("GM System On", [.systemExclusive(ChaseSongs.gmSystemOn)]),
        ("GS reset", [.systemExclusive(ChaseSongs.gsReset)]),
        ("XG System On", [.systemExclusive(ChaseSongs.xgSystemOn)]),
    ]

    @Test("a note silenced before the target is not struck again, nor heard", arguments: silencers)
    func silencedNotesStaySilent(_ silencer: (name: String, messages: [MIDIMessage])) throws {
        let sequencer = try Self.sequencer(Self.organ(silencedBy: silencer.messages))
        let plan = sequencer.plan(seekingTo: Int64(5 * Self.sampleRate), chaseNotes: true)
        #expect(MessageRecorder.messages(of: plan).strikes.isEmpty, "after \(silencer.name)")
        sequencer.seek(following: plan)
        #expect(Self.peak(Self.render(sequencer, seconds: 0.5)) == 0, "after \(silencer.name)")
        #expect(sequencer.synthesizer.pressedKeys.read().allSatisfy { $0 == 0 })
    }

    @Test("the same note, never silenced, is struck again and heard")
    func heldNoteIsStruckAgain() throws {
        let sequencer = try Self.sequencer(Self.organ(silencedBy: [ChaseSongs.control(7, 90)]))
        let plan = sequencer.plan(seekingTo: Int64(5 * Self.sampleRate), chaseNotes: true)
        #expect(MessageRecorder.messages(of: plan).strikes == [[0, 60, 100]])
        sequencer.seek(following: plan)
        #expect(Self.peak(Self.render(sequencer, seconds: 0.5)) > 0.01)
    }

    /// Pedal down at 0 s, an organ note from 0 s to 1 s (or ended by `ending` at 1 s), pedal up at
    /// 10 s, a last note at 11.5 s: the audit's `pedal.mid`.
    static func pedalSong(ending: MIDIMessage = .noteOff(channel: 1, note: 60, velocity: 0)) -> Song {
        ChaseSongs.song { track in
            track.append(.programChange(channel: 1, program: 19), atTick: 0)
            track.append(ChaseSongs.control(64, 127, channel: 1), atTick: 0)
            track.append(.noteOn(channel: 1, note: 60, velocity: 100), atTick: 0)
            track.append(ending, atTick: ChaseSongs.tick(1))
            track.append(ChaseSongs.control(64, 0, channel: 1), atTick: ChaseSongs.tick(10))
            track.append(.noteOn(channel: 1, note: 72, velocity: 100), atTick: ChaseSongs.tick(11.5))
            track.append(.noteOff(channel: 1, note: 72, velocity: 0), atTick: ChaseSongs.tick(12))
        }
    }

    @Test(
        "a note the sustain pedal holds is struck and let go under the pedal, which still ends it",
        arguments: [
            ("note off", MIDIMessage.noteOff(channel: 1, note: 60, velocity: 0)),
            ("all notes off", ChaseSongs.control(123, 0, channel: 1)),
        ])
    func sustainedNoteGoesOnUntilThePedalComesUp(_ ending: (name: String, message: MIDIMessage)) throws {
        let song = Self.pedalSong(ending: ending.message)
        let sought = try Self.sequencer(song)
        let plan = sought.plan(seekingTo: Int64(5 * Self.sampleRate), chaseNotes: true)
        let sent = MessageRecorder.messages(of: plan)
        #expect(sent.strikes == [[1, 60, 100]], "\(ending.name)")
        #expect(sent.releases == [[1, 60]], "\(ending.name)")
        // The pedal goes down before the note is let go, or nothing would hold it.
        let order = sent.channelMessages.map(\.description)
        #expect(order.firstIndex(of: "b0 ch1 64 127")! < order.firstIndex(of: "80 ch1 60 0")!)

        sought.seek(following: plan)
        #expect(sought.synthesizer.pressedKeys.read()[60] == 1 << 1, "the key shows held by the pedal")
        let afterSeek = Self.render(sought, seconds: 5.5)
        // Played from the start, for comparison.
        let played = try Self.sequencer(song)
        _ = Self.render(played, seconds: 5)
        let playedOn = Self.render(played, seconds: 5.5)
        let beforePedalUp = 2 * Int(4.5 * Self.sampleRate)..<2 * Int(4.9 * Self.sampleRate)
        let afterPedalUp = 2 * Int(5.3 * Self.sampleRate)..<2 * Int(5.5 * Self.sampleRate)
        #expect(Self.peak(afterSeek[beforePedalUp]) > 0.01, "\(ending.name): still sounding before the pedal comes up")
        #expect(Self.peak(playedOn[beforePedalUp]) > 0.01)
        #expect(Self.peak(afterSeek[afterPedalUp]) < 0.001, "\(ending.name): released when the pedal comes up")
        #expect(Self.peak(playedOn[afterPedalUp]) < 0.001)
        #expect(sought.synthesizer.pressedKeys.read()[60] == 0)
    }

    @Test("without chase notes, the same seek strikes nothing")
    func plainSeekStrikesNothing() throws {
        let sequencer = try Self.sequencer(Self.pedalSong())
        let sent = MessageRecorder.messages(of: sequencer.plan(seekingTo: Int64(5 * Self.sampleRate)))
        #expect(sent.strikes.isEmpty && sent.releases.isEmpty)
    }

    @Test(
        "the pedal lifted, by its own message or by reset all controllers, lets the note end",
        arguments: [UInt8(64), 121])
    func liftedPedalEndsTheNote(_ controller: UInt8) throws {
        let song = ChaseSongs.song { track in
            track.append(ChaseSongs.control(64, 127), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: ChaseSongs.tick(0.5))
            track.append(ChaseSongs.control(controller, 0), atTick: ChaseSongs.tick(1))
            track.append(.noteOn(channel: 0, note: 72, velocity: 100), atTick: ChaseSongs.tick(3))
        }
        let sent = MessageRecorder.messages(of: try Self.sequencer(song).plan(seekingTo: Int64(2 * Self.sampleRate), chaseNotes: true))
        #expect(sent.strikes.isEmpty)
    }

    @Test("all sound off under the pedal silences the notes but leaves the pedal down for the next ones")
    func allSoundOffLeavesThePedalDown() throws {
        let song = ChaseSongs.song { track in
            track.append(ChaseSongs.control(64, 127), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(ChaseSongs.control(120, 0), atTick: ChaseSongs.tick(0.5))
            track.append(.noteOn(channel: 0, note: 62, velocity: 70), atTick: ChaseSongs.tick(1))
            track.append(.noteOff(channel: 0, note: 62, velocity: 0), atTick: ChaseSongs.tick(1.5))
            track.append(ChaseSongs.control(64, 0), atTick: ChaseSongs.tick(3))
        }
        let sent = MessageRecorder.messages(of: try Self.sequencer(song).plan(seekingTo: Int64(2 * Self.sampleRate), chaseNotes: true))
        #expect(sent.strikes == [[0, 62, 70]])
        #expect(sent.releases == [[0, 62]])
    }

    @Test("after random runs of notes, pedals, mode messages and resets, the keys down are those played")
    func randomRunsLeaveTheKeysPlayingLeft() throws {
        var random = SeededRandom(seed: 0xC4A5E)
        let synthesizers = try (
            Synthesizer(settings: Self.settings, soundFontPath: TestSoundFont.required()),
            Synthesizer(settings: Self.settings, soundFontPath: TestSoundFont.required())
        )
        for run in 0..<40 {
            // Keys are let go only while down: the synthesizer's picture of the keys lights a key
            // let go under the pedal even if it was not down, where FluidSynth sounds nothing.
            var down: Set<[UInt8]> = []
            let song = ChaseSongs.song { track in
                for step in 0..<Int.random(in: 1...30, using: &random) {
                    let channel = UInt8.random(in: 0...1, using: &random)
                    let key = UInt8.random(in: 60...63, using: &random)
                    let message: MIDIMessage
                    switch Int.random(in: 0..<20, using: &random) {
                    case 0..<6:
                        message = .noteOn(channel: channel, note: key, velocity: UInt8.random(in: 1...127, using: &random))
                        down.insert([channel, key])
                    case 6..<12:
                        guard let held = down.randomElement(using: &random) else { continue }
                        message =
                            Bool.random(using: &random)
                            ? .noteOff(channel: held[0], note: held[1], velocity: 0)
                            : .noteOn(channel: held[0], note: held[1], velocity: 0)
                        down.remove(held)
                    case 12..<15:
                        message = ChaseSongs.control(64, [0, 63, 64, 127].randomElement(using: &random)!, channel: channel)
                    case 15, 16:
                        message = ChaseSongs.control(Bool.random(using: &random) ? 123 : 120, 0, channel: channel)
                        down = down.filter { $0[0] != channel }
                    case 17:
                        message = ChaseSongs.control(121, 0, channel: channel)
                    case 18:
                        message = .systemExclusive(ChaseSongs.gmSystemOn)
                        down = []
                    default:
                        message = ChaseSongs.control(7, 100, channel: channel)
                    }
                    track.append(message, atTick: UInt32(step * 10))
                }
                track.append(ChaseSongs.control(7, 100), atTick: 960)
            }
            let played = Sequencer(song: song, synthesizer: synthesizers.0)
            let sought = Sequencer(song: song, synthesizer: synthesizers.1)
            played.rewind()
            _ = Self.render(played, seconds: 0.5)
            sought.seek(toSeconds: 0.5, chaseNotes: true)
            // The first read also shows the keys struck since the start; the second, those down.
            _ = (played.synthesizer.pressedKeys.read(), sought.synthesizer.pressedKeys.read())
            let keys = (sought: sought.synthesizer.pressedKeys.read()[60...63], played: played.synthesizer.pressedKeys.read()[60...63])
            #expect(keys.sought == keys.played, "run \(run): \(song.file.tracks[0].events.map { song.file.tracks[0].message(of: $0) })")
        }
    }

    @Test("a key struck again while held under the pedal sounds twice: the first strike sustained, the second held")
    func keyStruckAgainUnderThePedal() throws {
        let song = ChaseSongs.song { track in
            track.append(ChaseSongs.control(64, 127), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: ChaseSongs.tick(0.5))
            // Let go without the pedal: this one ends.
            track.append(.noteOn(channel: 0, note: 64, velocity: 90), atTick: ChaseSongs.tick(0.5))
            track.append(.noteOn(channel: 2, note: 64, velocity: 90), atTick: ChaseSongs.tick(0.5))
            track.append(.noteOn(channel: 2, note: 64, velocity: 0), atTick: ChaseSongs.tick(0.7))
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: ChaseSongs.tick(3))
        }
        let sent = MessageRecorder.messages(of: try Self.sequencer(song).plan(seekingTo: Int64(2 * Self.sampleRate), chaseNotes: true))
        #expect(sent.strikes == [[0, 60, 100], [0, 60, 80], [0, 64, 90]])
        #expect(sent.releases == [[0, 60]])
    }
}
