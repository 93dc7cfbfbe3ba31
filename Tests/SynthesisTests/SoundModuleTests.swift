import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// What the sound module makes FluidSynth play for the GS, XG and GM2 messages songs send: which
/// channels play drum kits, which preset each channel plays, which keys sound. (How they sound is
/// checked by ear, so to speak, in CompatibilityRenderTests.)
struct SoundModuleTests {
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)
    static let fluidGM: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    static let fluidGS: FilePath = "/usr/share/sounds/sf2/FluidR3_GS.sf2"

    /// A GS data set with its checksum, to device 10H.
    static func gs(_ address: [UInt8], _ data: [UInt8], device: UInt8 = 0x10) -> [UInt8] {
        let sum = (address + data).reduce(0) { $0 + Int($1) }
        return [0x41, device, 0x42, 0x12] + address + data + [UInt8((128 - sum % 128) % 128)]
    }

    static func xg(_ address: [UInt8], _ data: [UInt8]) -> [UInt8] { [0x43, 0x10, 0x4C] + address + data }

    static let gsReset = gs([0x40, 0x00, 0x7F], [0x00])
    static let xgOn = xg([0x00, 0x00, 0x7E], [0x00])
    static let gm2On: [UInt8] = [0x7E, 0x7F, 0x09, 0x03]

    static func synthesizer(_ soundFonts: [FilePath] = [TestSoundFont.path], mode: MIDIMode? = nil) throws -> Synthesizer {
        for path in soundFonts { try #require(FileManager.default.fileExists(atPath: path.string), "\(path) is missing: run `make deps`") }
        var settings = Self.settings
        settings.midiMode = mode
        return try Synthesizer(settings: settings, soundFonts: SoundFontStack(soundFonts))
    }

    static func send(_ message: [UInt8], to synthesizer: Synthesizer) {
        message.withUnsafeBufferPointer { synthesizer.sendSystemExclusive($0) }
    }

    static func program(_ synthesizer: Synthesizer, channel: Int) -> [Int] {
        let selected = synthesizer.program(channel: channel)
        return [selected.bank, selected.program]
    }

    // MARK: GS

    @Test(
        "GS use for rhythm part makes any channel a drum part, in the GS part order, and back",
        arguments: [
            (UInt8(0x1A), 10), (0x11, 0), (0x19, 8), (0x1F, 15),
        ])
    func gsRhythmPart(block: UInt8, channel: Int) throws {
        let synthesizer = try Self.synthesizer()
        Self.send(Self.gsReset, to: synthesizer)
        synthesizer.send(status: 0xC0, channel: channel, data1: 25, data2: 0)
        #expect(!synthesizer.isDrumChannel(channel))
        Self.send(Self.gs([0x40, block, 0x15], [0x02]), to: synthesizer)
        #expect(synthesizer.isDrumChannel(channel))
        #expect(Self.program(synthesizer, channel: channel) == [128, 25], "the kit of the program already chosen")
        synthesizer.send(status: 0xC0, channel: channel, data1: 0, data2: 0)
        #expect(Self.program(synthesizer, channel: channel) == [128, 0])
        Self.send(Self.gs([0x40, block, 0x15], [0x00]), to: synthesizer)
        #expect(!synthesizer.isDrumChannel(channel))
        synthesizer.send(status: 0xC0, channel: channel, data1: 40, data2: 0)
        #expect(Self.program(synthesizer, channel: channel) == [0, 40])
    }

    @Test func gsRhythmPartOffMakesChannelTenMelodic() throws {
        let synthesizer = try Self.synthesizer()
        #expect(synthesizer.isDrumChannel(9))
        Self.send(Self.gs([0x40, 0x10, 0x15], [0x00]), to: synthesizer)
        synthesizer.send(status: 0xC0, channel: 9, data1: 5, data2: 0)
        #expect(!synthesizer.isDrumChannel(9))
        #expect(Self.program(synthesizer, channel: 9) == [0, 5])
    }

    @Test(
        "device ids 10H–1FH and 7FH are heard; a wrong checksum or another model id is not",
        arguments: [
            (UInt8(0x10), true), (0x11, true), (0x1F, true), (0x7F, true), (0x00, false), (0x20, false),
        ])
    func gsDeviceIDs(device: UInt8, heard: Bool) throws {
        let synthesizer = try Self.synthesizer()
        Self.send(Self.gs([0x40, 0x1A, 0x15], [0x01], device: device), to: synthesizer)
        #expect(synthesizer.isDrumChannel(10) == heard)
    }

    @Test func gsWrongChecksumIsIgnored() throws {
        let synthesizer = try Self.synthesizer()
        var message = Self.gs([0x40, 0x1A, 0x15], [0x01])
        message[message.count - 1] ^= 0x01
        #expect(SoundModuleCommand.commands(in: message) == [.badChecksum])
        Self.send(message, to: synthesizer)
        #expect(!synthesizer.isDrumChannel(10))
    }

    @Test("master and part key shifts move melodic notes, never drum notes")
    func keyShifts() throws {
        let synthesizer = try Self.synthesizer()
        Self.send(Self.gs([0x40, 0x00, 0x05], [0x40 + 12]), to: synthesizer)
        Self.send(Self.gs([0x40, 0x12, 0x16], [0x40 - 5]), to: synthesizer)
        synthesizer.send(status: 0x90, channel: 0, data1: 60, data2: 100)
        synthesizer.send(status: 0x90, channel: 1, data1: 60, data2: 100)
        synthesizer.send(status: 0x90, channel: 9, data1: 38, data2: 100)
        let keys = synthesizer.pressedKeys.read()
        #expect(keys[72] & 1 != 0, "channel 1 plays C5 for C4 under +12")
        #expect(keys[67] & 2 != 0, "channel 2 plays G4 for C4 under +12 −5")
        #expect(keys[38] & (1 << 9) != 0, "the snare stays the snare")
        // The shift changes while the notes sound: they still end.
        Self.send(Self.gs([0x40, 0x00, 0x05], [0x40]), to: synthesizer)
        synthesizer.send(status: 0x80, channel: 0, data1: 60, data2: 0)
        synthesizer.send(status: 0x80, channel: 1, data1: 60, data2: 0)
        let after = synthesizer.pressedKeys.read()
        #expect(after[72] & 1 == 0 && after[67] & 2 == 0, "the shifted notes were released")
    }

    @Test func gsReceiveChannelSendsAChannelToAnotherPart() throws {
        let synthesizer = try Self.synthesizer()
        synthesizer.send(status: 0xC0, channel: 0, data1: 0, data2: 0)
        synthesizer.send(status: 0xC0, channel: 1, data1: 48, data2: 0)
        Self.send(Self.gs([0x40, 0x12, 0x02], [0x00]), to: synthesizer)
        synthesizer.send(status: 0x90, channel: 0, data1: 64, data2: 100)
        synthesizer.send(status: 0x90, channel: 1, data1: 70, data2: 100)
        let keys = synthesizer.pressedKeys.read()
        #expect(keys[64] == 0b11, "channel 1's note plays on parts 1 and 2")
        #expect(keys[70] == 0, "part 2 no longer hears channel 2")
        #expect(Self.program(synthesizer, channel: 1) == [0, 48])
    }

    @Test("GS reset and exit GS mode undo the rhythm part, the key shift and the master volume")
    func gsResetRestoresDefaults() throws {
        for reset in [Self.gsReset, Self.gs([0x40, 0x00, 0x7F], [0x7F]), [0x7E, 0x7F, 0x09, 0x01]] {
            let synthesizer = try Self.synthesizer()
            Self.send(Self.gs([0x40, 0x1A, 0x15], [0x01]), to: synthesizer)
            Self.send(Self.gs([0x40, 0x00, 0x05], [0x40 + 7]), to: synthesizer)
            Self.send(Self.gs([0x40, 0x00, 0x04], [0x20]), to: synthesizer)
            Self.send(reset, to: synthesizer)
            #expect(!synthesizer.isDrumChannel(10) && synthesizer.isDrumChannel(9))
            #expect(synthesizer.masterVolume == 1)
            synthesizer.send(status: 0x90, channel: 0, data1: 60, data2: 100)
            #expect(synthesizer.pressedKeys.read()[60] & 1 != 0)
        }
    }

    @Test func missingVariationFallsBackToTheCapitalToneAndMissingKitToStandard() throws {
        let synthesizer = try Self.synthesizer()
        synthesizer.send(status: 0xB0, channel: 0, data1: 0, data2: 99)
        synthesizer.send(status: 0xC0, channel: 0, data1: 30, data2: 0)
        #expect(Self.program(synthesizer, channel: 0) == [0, 30])
        synthesizer.send(status: 0xC0, channel: 9, data1: 99, data2: 0)
        #expect(Self.program(synthesizer, channel: 9) == [128, 0])
        // Said once a note sounds there: a channel set up and never played has nothing to say.
        #expect(synthesizer.substitutions.isEmpty, "\(synthesizer.substitutions)")
        synthesizer.send(status: 0x90, channel: 0, data1: 60, data2: 100)
        synthesizer.send(status: 0x90, channel: 9, data1: 36, data2: 0)
        #expect(synthesizer.substitutions.count == 1, "a note-on of velocity 0 is a note-off")
        synthesizer.send(status: 0x90, channel: 9, data1: 36, data2: 100)
        #expect(
            synthesizer.substitutions.map(\.description) == [
                "no SoundFont has bank 99 program 31: bank 0 program 31 plays instead",
                "no SoundFont has drum kit 100: the standard kit plays instead",
            ])
    }

    // MARK: XG

    @Test func xgBankSelectsDrumKitsOnAnyChannelAndVariationsByLSB() throws {
        let synthesizer = try Self.synthesizer([Self.fluidGS, Self.fluidGM])
        Self.send(Self.xgOn, to: synthesizer)
        #expect(synthesizer.mode == .xg)
        synthesizer.send(status: 0xB0, channel: 0, data1: 0, data2: 127)
        synthesizer.send(status: 0xC0, channel: 0, data1: 25, data2: 0)
        #expect(synthesizer.isDrumChannel(0) && Self.program(synthesizer, channel: 0) == [128, 25])
        synthesizer.send(status: 0xB0, channel: 1, data1: 0, data2: 126)
        synthesizer.send(status: 0xC0, channel: 1, data1: 0, data2: 0)
        #expect(synthesizer.isDrumChannel(1) && Self.program(synthesizer, channel: 1) == [128, 56], "the SFX kit")
        synthesizer.send(status: 0xB0, channel: 2, data1: 0, data2: 0)
        synthesizer.send(status: 0xB0, channel: 2, data1: 32, data2: 8)
        synthesizer.send(status: 0xC0, channel: 2, data1: 4, data2: 0)
        #expect(Self.program(synthesizer, channel: 2) == [8, 4], "LSB 8 is FluidR3_GM's bank 8")
        // Channel 10 keeps its kit whatever melodic bank a song gives it, as XG modules do.
        synthesizer.send(status: 0xB0, channel: 9, data1: 0, data2: 0)
        synthesizer.send(status: 0xC0, channel: 9, data1: 0, data2: 0)
        #expect(synthesizer.isDrumChannel(9))
        // Back to a melodic bank on channel 1: an instrument again.
        synthesizer.send(status: 0xB0, channel: 0, data1: 0, data2: 0)
        synthesizer.send(status: 0xC0, channel: 0, data1: 25, data2: 0)
        #expect(!synthesizer.isDrumChannel(0) && Self.program(synthesizer, channel: 0) == [0, 25])
    }

    @Test func xgSFXKitWithoutASoundFontThatHasOneIsTheStandardKit() throws {
        let synthesizer = try Self.synthesizer()
        Self.send(Self.xgOn, to: synthesizer)
        synthesizer.send(status: 0xB0, channel: 3, data1: 0, data2: 126)
        synthesizer.send(status: 0xC0, channel: 3, data1: 0, data2: 0)
        #expect(Self.program(synthesizer, channel: 3) == [128, 0])
        synthesizer.send(status: 0x90, channel: 3, data1: 36, data2: 100)
        #expect(synthesizer.substitutions.first?.description.contains("SFX drum kit") == true)
    }

    @Test func xgPartModeMakesADrumPart() throws {
        let synthesizer = try Self.synthesizer()
        Self.send(Self.xgOn, to: synthesizer)
        Self.send(Self.xg([0x08, 0x02, 0x07], [0x01]), to: synthesizer)
        #expect(synthesizer.isDrumChannel(2))
        Self.send(Self.xg([0x08, 0x02, 0x07], [0x00]), to: synthesizer)
        #expect(!synthesizer.isDrumChannel(2))
    }

    @Test func chosenModeWinsOverTheSong() throws {
        let synthesizer = try Self.synthesizer(mode: .gm)
        Self.send(Self.xgOn, to: synthesizer)
        #expect(synthesizer.mode == .gm)
        synthesizer.send(status: 0xB0, channel: 0, data1: 0, data2: 127)
        synthesizer.send(status: 0xC0, channel: 0, data1: 0, data2: 0)
        #expect(!synthesizer.isDrumChannel(0))
    }

    // MARK: GM2

    @Test func gm2BanksSelectRhythmAndVariations() throws {
        let synthesizer = try Self.synthesizer([Self.fluidGM])
        Self.send(Self.gm2On, to: synthesizer)
        #expect(synthesizer.mode == .gm2)
        synthesizer.send(status: 0xB0, channel: 0, data1: 0, data2: 120)
        synthesizer.send(status: 0xC0, channel: 0, data1: 0, data2: 0)
        #expect(synthesizer.isDrumChannel(0) && Self.program(synthesizer, channel: 0) == [128, 0])
        synthesizer.send(status: 0xB0, channel: 1, data1: 0, data2: 121)
        synthesizer.send(status: 0xB0, channel: 1, data1: 32, data2: 8)
        synthesizer.send(status: 0xC0, channel: 1, data1: 4, data2: 0)
        #expect(Self.program(synthesizer, channel: 1) == [8, 4])
        synthesizer.send(status: 0xB0, channel: 1, data1: 32, data2: 3)
        synthesizer.send(status: 0xC0, channel: 1, data1: 4, data2: 0)
        #expect(Self.program(synthesizer, channel: 1) == [0, 4], "no bank 3: the GM sound")
    }

    // MARK: Detection and seeking

    @Test(
        "a song's standard is told by its resets, its messages or its banks",
        arguments: [
            ([SoundModuleTests.gsReset], [], MIDIMode.gs),
            ([[0x7E, 0x7F, 0x09, 0x01], SoundModuleTests.xgOn], [], .xg),
            ([SoundModuleTests.gm2On], [], .gm2),
            ([], [[0, 127]], .xg),
            ([], [[0, 121]], .gm2),
            ([], [[9, 127]], .gm),
            ([], [], .gm),
        ])
    func detection(messages: [[UInt8]], banks: [[UInt8]], expected: MIDIMode) {
        var track = Track()
        for message in messages { track.append(.systemExclusive(message + [0xF7]), atTick: 0) }
        // Each bank is [channel, MSB].
        for bank in banks { track.append(.controlChange(channel: bank[0], controller: 0, value: bank[1]), atTick: 0) }
        track.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 10)
        track.append(.meta(.endOfTrack), atTick: 480)
        let song = Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
        #expect(MIDIModeDetection(song: song).mode == expected)
    }

    @Test("a seek restores the drum parts, kits and key shifts that playing there would have left")
    func seekChasesTheModule() throws {
        var track = Track()
        track.append(.systemExclusive(Self.gsReset + [0xF7]), atTick: 0)
        track.append(.systemExclusive(Self.gs([0x40, 0x1A, 0x15], [0x01]) + [0xF7]), atTick: 480)
        track.append(.programChange(channel: 10, program: 16), atTick: 600)
        track.append(.systemExclusive(Self.gs([0x40, 0x10, 0x15], [0x00]) + [0xF7]), atTick: 700)
        track.append(.programChange(channel: 9, program: 73), atTick: 800)
        track.append(.systemExclusive(Self.gs([0x40, 0x00, 0x05], [0x40 + 2]) + [0xF7]), atTick: 900)
        track.append(.meta(.endOfTrack), atTick: 1920)
        let song = Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
        let sequencer = Sequencer(song: song, synthesizer: try Self.synthesizer())
        sequencer.seek(toSeconds: 1.5)
        let synthesizer = sequencer.synthesizer
        #expect(synthesizer.isDrumChannel(10) && Self.program(synthesizer, channel: 10) == [128, 16])
        #expect(!synthesizer.isDrumChannel(9) && Self.program(synthesizer, channel: 9) == [0, 73])
        synthesizer.send(status: 0x90, channel: 0, data1: 60, data2: 100)
        #expect(synthesizer.pressedKeys.read()[62] & 1 != 0, "the key shift of +2 is back")
    }

    // MARK: Hostile input

    /// Random data sets with right checksums (so that they are acted on), random XG and universal
    /// messages, between notes: the synthesizer goes on rendering finite, unclipped sound.
    @Test func randomModuleMessagesNeverBreakTheSynthesizer() throws {
        let synthesizer = try Self.synthesizer()
        // Seeded: a failing run can be run again.
        var random = SeededRandom(seed: 0x5EED_0F_5C)
        var buffer = [Float](repeating: 0, count: 2 * 256)
        for round in 0..<3000 {
            let body = (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...127, using: &random) }
            let message: [UInt8] =
                switch round % 3 {
                case 0: Self.gs([[0x40, 0x50, 0x00].randomElement(using: &random)!] + body.prefix(2), Array(body.dropFirst(2)) + [0])
                case 1: Self.xg(body.count > 3 ? Array(body.prefix(3)) : [0x08, 0, 7], Array(body.dropFirst(3)) + [1])
                default: [0x7F, 0x7F, 0x04] + body
                }
            Self.send(message, to: synthesizer)
            synthesizer.send(status: 0x90 | UInt8(round % 16), channel: round % 64, data1: UInt8(round % 128), data2: 100)
            synthesizer.send(status: 0xC0, channel: (round * 7) % 64, data1: UInt8(round % 128), data2: 0)
            if round % 50 == 0 {
                buffer.withUnsafeMutableBufferPointer { synthesizer.render(into: $0.baseAddress!, frames: 256) }
                #expect(buffer.allSatisfy { $0.isFinite && abs($0) <= 1 }, "round \(round): \(message)")
            }
        }
    }

    /// FluidSynth's reset gives every channel its default interpolation: the synthesizer sets the
    /// configured one again (before, every song played with fourth-order interpolation whatever
    /// `interpolation` said).
    @Test func theConfiguredInterpolationOutlivesResets() throws {
        func render(_ interpolation: SynthesizerSettings.Interpolation) throws -> [Float] {
            var settings = Self.settings
            settings.interpolation = interpolation
            let synthesizer = try Synthesizer(settings: settings, soundFontPath: TestSoundFont.required())
            synthesizer.reset(songMode: .gm)
            synthesizer.send(status: 0x90, channel: 0, data1: 61, data2: 100)
            var buffer = [Float](repeating: 0, count: 2 * 4096)
            buffer.withUnsafeMutableBufferPointer { synthesizer.render(into: $0.baseAddress!, frames: 4096) }
            return buffer
        }
        #expect(try render(.nearest) != render(.cubic))
    }
}
