import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// One note rendered through smfplay's `Synthesizer` from a sound bank, and what a listener would
/// judge it by: for the sound bank tests (``TestSoundBankSoundTests``, ``SoundBankSelectionTests``).
struct SoundBankNote {
    /// No reverb or chorus: they would smear the spectra the tests read.
    static let settings = SynthesizerSettings(gain: 0.5, reverb: nil, chorus: nil)
    static let fluidR3: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    /// Writes `bank` in `format` into `folder`, named after the format.
    static func write(_ bank: TestSoundBank, _ format: TestSoundBank.Format, in folder: TemporaryFolder) throws -> FilePath {
        FilePath(try bank.write(format, to: folder.file("bank.\(format.fileExtension)")))
    }

    static func synthesizer(_ soundFonts: [FilePath], mode: MIDIMode? = nil) throws -> Synthesizer {
        for path in soundFonts { try #require(FileManager.default.fileExists(atPath: path.string), "\(path) is missing: run `make deps`") }
        var settings = Self.settings
        settings.midiMode = mode
        return try Synthesizer(settings: settings, soundFonts: SoundFontStack(soundFonts))
    }

    /// Interleaved stereo: `setUp` sends its messages, then `key` is struck on `channel` and held
    /// for `held` seconds, then released, and `after` seconds more are rendered.
    static func render(
        _ synthesizer: Synthesizer, channel: Int = 0, key: UInt8 = 69, held: Double = 0.6, after: Double = 0,
        setUp: (Synthesizer) -> Void = { _ in }
    ) -> [Float] {
        setUp(synthesizer)
        synthesizer.send(status: 0x90, channel: channel, data1: key, data2: 100)
        var audio = frames(synthesizer, seconds: held)
        synthesizer.send(status: 0x80, channel: channel, data1: key, data2: 0)
        audio += frames(synthesizer, seconds: after)
        return audio
    }

    private static func frames(_ synthesizer: Synthesizer, seconds: Double) -> [Float] {
        let count = Int(seconds * settings.sampleRate)
        var audio = [Float](repeating: 0, count: 2 * count)
        audio.withUnsafeMutableBufferPointer { synthesizer.render(into: $0.baseAddress!, frames: count) }
        return audio
    }

    /// The root-mean-square level of interleaved audio between two times, in seconds.
    static func rms(_ audio: [Float], from start: Double, to end: Double) -> Double {
        let range = Int(start * settings.sampleRate) * 2..<min(Int(end * settings.sampleRate) * 2, audio.count)
        guard !range.isEmpty else { return 0 }
        return (audio[range].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(range.count)).squareRoot()
    }

    /// Program change (and bank select, if any) on `channel`, as a song would send them.
    static func select(_ synthesizer: Synthesizer, channel: Int = 0, msb: UInt8? = nil, lsb: UInt8? = nil, program: UInt8) {
        if let msb { synthesizer.send(status: 0xB0, channel: channel, data1: 0, data2: msb) }
        if let lsb { synthesizer.send(status: 0xB0, channel: channel, data1: 32, data2: lsb) }
        synthesizer.send(status: 0xC0, channel: channel, data1: program, data2: 0)
    }
}
