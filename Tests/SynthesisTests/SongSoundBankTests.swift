import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

/// A song's own bank on top of the stack: read from its place inside another file (an RMID
/// file's embedded bank), heard at its bank offset, and left out, with the reason, when it cannot
/// be loaded. TimGM6mb plays the song's bank, FluidR3_GM the stack: their presets have other names.
@Suite("A song's own sound bank")
struct SongSoundBankTests {
    static let fluidR3: FilePath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    /// TimGM6mb inside a file, after 77 bytes (an odd place) and before 33 more.
    private func fileHoldingTimGM(in folder: TemporaryFolder) throws -> (path: FilePath, bank: Range<Int>) {
        let timGM = try Array(Data(contentsOf: URL(fileURLWithPath: TestSoundFont.required().string)))
        let path = try FilePath(folder.create("song.rmi", Array(repeating: 0x55, count: 77) + timGM + Array(repeating: 0xAA, count: 33)))
        return (path, 77..<77 + timGM.count)
    }

    @Test("a SoundFont read from its place inside another file loads as the same SoundFont on its own: the same presets, the same sound, bit for bit")
    func embeddedBankLoadsAsTheFileAlone() throws {
        let folder = try TemporaryFolder()
        let (path, bytes) = try fileHoldingTimGM(in: folder)
        let embedded = try FluidSynthInstance(sampleRate: 44_100)
        try embedded.add(songBank: SongSoundBank(embedded: EmbeddedSoundBank(format: .soundFont, bytes: bytes), in: path))
        let id = try #require(embedded.songBank?.id)
        let alone = try FluidSynthInstance(.init(sampleRate: 44_100, soundFonts: [TestSoundFont.path]))
        let aloneID = try #require(alone.soundFontIDs[TestSoundFont.path])

        let presets = FluidSynthProbe.presets(of: embedded.synth, soundFont: id)
        #expect(presets.count > 100)
        #expect(presets == FluidSynthProbe.presets(of: alone.synth, soundFont: aloneID))
        let sound = FluidSynthProbe.chords(on: embedded.synth)
        #expect(sound.contains { abs($0) > 0.01 })
        #expect(zip(sound, FluidSynthProbe.chords(on: alone.synth)).count { $0 != $1 } == 0)
    }

    /// The name of what part 0 plays after bank select `bank` (MSB: GM mode reads it) and `program`.
    private func presetName(_ synthesizer: Synthesizer, bank: UInt8, program: UInt8, channel: Int = 0) throws -> String {
        synthesizer.send(status: 0xB0, channel: channel, data1: 0, data2: bank)
        synthesizer.send(status: 0xC0, channel: channel, data1: program, data2: 0)
        return try #require(synthesizer.activity.preset(part: channel).flatMap(synthesizer.name(of:)))
    }

    private func synthesizer(bank: SongSoundBank?) throws -> Synthesizer {
        try #require(FileManager.default.fileExists(atPath: Self.fluidR3.string), "run `make deps` (fluid-soundfont-gm)")
        return try Synthesizer(settings: SynthesizerSettings(gain: 0.5), soundFonts: SoundFontStack([Self.fluidR3]).with(songBank: bank))
    }

    @Test(
        "the song's bank is heard at its offset: with offset 1 the song selects bank 1 for the bank's bank 0 and bank 0 stays the stack's; with 0 it replaces bank 0; drum kits stay at 128",
        arguments: [0, 1, 5])
    func bankOffsetDecidesWhatIsHeard(offset: Int) throws {
        let folder = try TemporaryFolder()
        let (path, bytes) = try fileHoldingTimGM(in: folder)
        let stack = try synthesizer(bank: nil)
        let timGM = try Synthesizer(settings: SynthesizerSettings(gain: 0.5), soundFonts: SoundFontStack([TestSoundFont.path]))
        let piano = (song: try presetName(timGM, bank: 0, program: 0), stack: try presetName(stack, bank: 0, program: 0))
        // Otherwise the test could not tell them apart.
        #expect(piano.song != piano.stack)

        let bank = SongSoundBank(embedded: EmbeddedSoundBank(format: .soundFont, bytes: bytes, bankOffset: offset), in: path)
        let synthesizer = try synthesizer(bank: bank)
        #expect(synthesizer.songBankProblem == nil)
        #expect(try presetName(synthesizer, bank: UInt8(offset), program: 0) == piano.song)
        let songBankID = try #require(synthesizer.activity.preset(part: 0)?.soundFont)
        if offset > 0 { #expect(try presetName(synthesizer, bank: 0, program: 0) == piano.stack) }
        // Both name their kit "Standard": which SoundFont plays it tells.
        _ = try presetName(synthesizer, bank: 0, program: 0, channel: 9)
        #expect(synthesizer.activity.preset(part: 9)?.soundFont == songBankID)
        #expect(synthesizer.activity.preset(part: 9)?.bank == 128)
    }

    @Test(
        "a bank that cannot be loaded (not a SoundFont where the file says, or cut short) leaves the song to the stack, with a problem naming the file"
    )
    func damagedBankLeavesTheStack() throws {
        let folder = try TemporaryFolder()
        let (path, bytes) = try fileHoldingTimGM(in: folder)
        let wrongPlace = SongSoundBank(embedded: EmbeddedSoundBank(format: .soundFont, bytes: 0..<bytes.upperBound), in: path)
        let synthesizer = try synthesizer(bank: wrongPlace)
        let problem = try #require(synthesizer.songBankProblem)
        #expect(
            problem
                == .songBankNotLoaded(
                    wrongPlace, because: .notASoundFont(path: path, reason: "it does not start like a .sf2 or .sf3 file (RIFF, then sfbk)")))
        #expect(problem.description.hasPrefix("\(path.text)'s embedded SoundFont is not used, the song plays without it: "))
        #expect(try presetName(synthesizer, bank: 1, program: 0) == presetName(try self.synthesizer(bank: nil), bank: 0, program: 0))

        let cut = SongSoundBank(embedded: EmbeddedSoundBank(format: .soundFont, bytes: bytes.lowerBound..<bytes.upperBound - 1000), in: path)
        let cutProblem = try #require(try self.synthesizer(bank: cut).songBankProblem)
        guard case .songBankNotLoaded(cut, because: .notASoundFont(path, let reason)) = cutProblem else {
            Issue.record("\(cutProblem)")
            return
        }
        #expect(reason.hasPrefix("it is cut short"))
    }
}
