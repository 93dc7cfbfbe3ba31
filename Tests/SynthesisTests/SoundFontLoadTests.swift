import CFluidSynth
import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import Synthesis

#if canImport(Glibc)
    import Glibc
#endif

/// SoundFonts as smfplay loads them: through its own file reader (`SoundFontFileReader`), with
/// OpenMP kept to one thread for a small .sf2, each file's outline checked first (`SoundFontFormat`).
@Suite("Loading SoundFonts")
struct SoundFontLoadTests {
    @Test("read through smfplay's reader, a SoundFont loads as FluidSynth's own reader loads it: the same presets, the same sound, bit for bit")
    func readerLoadsAsFluidSynthDoes() throws {
        let path = try TestSoundFont.required()
        let ours = try FluidSynthInstance(.init(sampleRate: 44_100, soundFonts: [path]))
        let id = try #require(ours.soundFontIDs[path])

        // FluidSynth alone: the same settings, its own loader and stdio, and a copy of the file:
        // FluidSynth shares the samples of one file (by name and time) between synthesizers.
        let folder = try TemporaryFolder()
        let copy = try FilePath(folder.create("copy.sf2", Array(Data(contentsOf: URL(fileURLWithPath: path.string)))))
        let settings = try #require(new_fluid_settings())
        defer { delete_fluid_settings(settings) }
        fluid_settings_setnum(settings, "synth.sample-rate", 44_100)
        fluid_settings_setint(settings, "synth.midi-channels", Int32(Synthesizer.channelCount))
        fluid_settings_setint(settings, "synth.threadsafe-api", 0)
        fluid_settings_setint(settings, "synth.lock-memory", 0)
        let theirs = try #require(new_fluid_synth(settings))
        defer { delete_fluid_synth(theirs) }
        let theirID = copy.withPlatformString { fluid_synth_sfload(theirs, $0, 0) }
        #expect(theirID != FLUID_FAILED)

        #expect(FluidSynthProbe.presets(of: ours.synth, soundFont: id) == FluidSynthProbe.presets(of: theirs, soundFont: theirID))
        #expect(FluidSynthProbe.presets(of: theirs, soundFont: theirID).count > 100)
        let ourSound = FluidSynthProbe.chords(on: ours.synth)
        #expect(ourSound.contains { abs($0) > 0.01 })
        let theirSound = FluidSynthProbe.chords(on: theirs)
        #expect(ourSound.count == theirSound.count)
        // A count, not the arrays: the failure message of two arrays this long takes minutes.
        #expect(zip(ourSound, theirSound).count { $0 != $1 } == 0)
    }

    @Test(
        "a SoundFont damaged inside (cut short with its header mended, its presets overwritten, its sample chunk claiming more than there is) is refused with an error naming it, never a crash"
    )
    func damagedInsideIsRefused() throws {
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: TestSoundFont.required().string)))
        let folder = try TemporaryFolder()
        var random = SeededRandom(seed: 7)
        var damaged: [String: [UInt8]] = [:]
        // Cut at 60 %, the RIFF size made to match: the outline passes, the chunks run past the end.
        var cut = Array(original.prefix(original.count * 6 / 10))
        cut.replaceSubrange(4..<8, with: littleEndian(UInt32(cut.count - 8)))
        damaged["cut.sf2"] = cut
        // The preset, instrument and sample headers (the file's last chunk) overwritten with noise.
        var noisy = original
        for index in (original.count - 200_000)..<original.count { noisy[index] = UInt8.random(in: 0...255, using: &random) }
        damaged["noisy.sf2"] = noisy
        // The sample chunk's size (after RIFF, sfbk, the INFO list, LIST, sdta, smpl) made huge.
        var swollen = original
        let infoSize = Int(readLittleEndian(original, at: 16))
        let samples = 12 + 8 + infoSize + 12 // RIFF header, the INFO list, then LIST and sdta
        #expect(original[samples..<samples + 4].elementsEqual("smpl".utf8))
        swollen.replaceSubrange(samples + 4..<samples + 8, with: littleEndian(0x7FFF_FFF0))
        damaged["swollen.sf2"] = swollen

        for (name, bytes) in damaged.sorted(by: { $0.key < $1.key }) {
            let path = try FilePath(folder.create(name, bytes))
            #expect(throws: SynthesisError.cannotLoadSoundFont(path: path), "\(name)") {
                try FluidSynthInstance(.init(sampleRate: 44_100, soundFonts: [path]))
            }
        }
    }

    @Test(
        "the outline tells an .sf2 from an .sf3 by its version, and a DLS file by its form; a file too short or cut short is refused with the reason")
    func outline() throws {
        let folder = try TemporaryFolder()
        func soundFont(form: String, version: UInt16, claimedExtra: Int = 0) -> [UInt8] {
            let info: [UInt8] = Array("INFO".utf8) + Array("ifil".utf8) + littleEndian(4) + [UInt8(version & 0xFF), UInt8(version >> 8), 1, 0]
            let list = Array("LIST".utf8) + littleEndian(UInt32(info.count)) + info
            let body = Array(form.utf8) + list
            return Array("RIFF".utf8) + littleEndian(UInt32(body.count + claimedExtra)) + body
        }
        func format(_ name: String, _ bytes: [UInt8]) throws -> SoundFontFormat {
            try SoundFontFormat(of: FilePath(folder.create(name, bytes)))
        }
        #expect(try format("a.sf2", soundFont(form: "sfbk", version: 2)) == .soundFont)
        #expect(try format("a.sf3", soundFont(form: "sfbk", version: 3)) == .compressed)
        #expect(try format("a.dls", soundFont(form: "DLS ", version: 0)) == .downloadableSounds)
        let short = try FilePath(folder.create("short.sf2", Array("RIFF".utf8)))
        #expect(throws: SynthesisError.notASoundFont(path: short, reason: "it does not start like a .sf2 or .sf3 file (RIFF, then sfbk)")) {
            try SoundFontFormat(of: short)
        }
        let claimed = soundFont(form: "sfbk", version: 2, claimedExtra: 100)
        let cut = try FilePath(folder.create("cut.sf2", claimed))
        #expect(
            throws: SynthesisError.notASoundFont(
                path: cut, reason: "it is cut short: its header says \(claimed.count + 100) bytes, the file has \(claimed.count)")
        ) {
            try SoundFontFormat(of: cut)
        }
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
