import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// The resets and master volumes of GM, GS and XG, as songs for each kind of sound module send them.
struct SystemExclusiveTests {
    static let settings = SynthesizerSettings(gain: 0.2, reverb: nil, chorus: nil)

    /// Messages as they stand in a file, without F0 and F7, device numbers as the standards' own.
    static let resets: [(name: String, message: [UInt8])] = [
        ("GM System On", [0x7E, 0x7F, 0x09, 0x01]),
        ("GM2 System On", [0x7E, 0x7F, 0x09, 0x03]),
        ("GS reset", [0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41]),
        ("SC-88 system mode set", [0x41, 0x10, 0x42, 0x12, 0x00, 0x00, 0x7F, 0x00, 0x01]),
        ("XG System On", [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00]),
        ("XG all parameters reset", [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7F, 0x00]),
    ]

    static func send(_ message: [UInt8], to synthesizer: Synthesizer) {
        message.withUnsafeBufferPointer { synthesizer.sendSystemExclusive($0) }
    }

    @Test("each reset puts programs, controllers, pitch bend and the master volume back as at power-on")
    func resetsRestorePowerOnState() throws {
        let synthesizer = try Synthesizer(settings: Self.settings, soundFontPath: try TestSoundFont.required())
        for (name, message) in Self.resets {
            synthesizer.send(status: 0xC0, channel: 0, data1: 80, data2: 0)
            synthesizer.send(status: 0xB0, channel: 1, data1: 7, data2: 20)
            synthesizer.send(status: 0xE0, channel: 2, data1: 0, data2: 0x7F)
            Self.send([0x7F, 0x7F, 0x04, 0x01, 0x00, 0x20], to: synthesizer)
            #expect(synthesizer.program(channel: 0).program == 80 && synthesizer.masterVolume < 0.5, "before \(name)")
            Self.send(message, to: synthesizer)
            #expect(synthesizer.program(channel: 0).program == 0, "program after \(name)")
            #expect(synthesizer.controller(7, channel: 1) == 100, "volume after \(name)")
            #expect(synthesizer.pitchBend(channel: 2) == 8192, "pitch bend after \(name)")
            #expect(synthesizer.masterVolume == 1, "master volume after \(name)")
        }
    }

    @Test(
        "master volume in its GM, GS and XG forms",
        arguments: [
            ([UInt8]([0x7F, 0x7F, 0x04, 0x01, 0x7F, 0x3F]), Float(0x3F * 128 + 0x7F) / 16_383),
            ([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x04, 0x40, 0x7C], Float(64) / 127),
            ([0x43, 0x10, 0x4C, 0x00, 0x00, 0x04, 0x20], Float(32) / 127),
        ])
    func masterVolume(_ message: [UInt8], _ volume: Float) throws {
        #expect(SoundModuleCommand.commands(in: message) == [.masterVolume(volume)])
        let synthesizer = try Synthesizer(settings: Self.settings, soundFontPath: try TestSoundFont.required())
        Self.send(message, to: synthesizer)
        #expect(synthesizer.masterVolume == volume)
    }

    @Test("other manufacturers' messages, unknown addresses and cut-off messages are no command")
    func otherMessagesAreNoCommand() {
        #expect(SoundModuleCommand.commands(in: [0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x7A, 0x04, 0x41]).isEmpty)
        #expect(SoundModuleCommand.commands(in: [0x43, 0x10, 0x4C, 0x02, 0x01, 0x00, 0x01]).isEmpty)
        #expect(SoundModuleCommand.commands(in: [0x41, 0x10, 0x42, 0x12, 0x40, 0x00]).isEmpty)
        #expect(SoundModuleCommand.commands(in: [0x44, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00]).isEmpty)
        #expect(SoundModuleCommand.commands(in: [UInt8]()).isEmpty)
    }
}
