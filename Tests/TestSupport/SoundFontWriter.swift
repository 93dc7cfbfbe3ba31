import Foundation

/// Writes a ``TestSoundBank`` as a SoundFont: version 2.01 with 16-bit samples, or version 3 with
/// each sample an Ogg Vorbis stream (as MuseScore's .sf3 and FluidSynth 2.3 read them).
///
/// The layout is the SoundFont 2.04 specification's: an INFO list (`ifil`, `isng`, `INAM`), the
/// samples (`sdta`/`smpl`), then the nine tables of `pdta`, each closed by its terminal record.
/// Each preset has one zone naming an instrument of its own; each instrument one zone (key range
/// 0–127, its release, loop mode, the sample) playing its waveform's sample, stored once however
/// many presets play it.
struct SoundFontWriter {
    let bank: TestSoundBank

    /// Generator numbers of the specification (section 8.1.2).
    private enum Generator: UInt16 {
        case releaseVolumeEnvelope = 38
        case instrument = 41
        case keyRange = 43
        case sampleID = 53
        case sampleModes = 54
        case scaleTuning = 56
    }

    /// Where a sample lies in `smpl`, in the units its header uses.
    private struct Placement {
        var start: UInt32
        var end: UInt32
        var loopStart: UInt32
        var loopEnd: UInt32
    }

    /// `sampleType` bits: a mono sample, and (SoundFont 3) one compressed with Ogg Vorbis.
    private static let monoSample: UInt16 = 1
    private static let vorbisCompressed: UInt16 = 0x10
    /// The specification asks for 46 zero samples after each sample, for interpolation past its end.
    static let zeroSamplesAfterEach = 46

    func soundFont2() -> [UInt8] {
        var data = RIFFBuilder()
        var placements: [Placement] = []
        for waveform in bank.waveforms {
            let sample = waveform.sample
            let start = UInt32(data.bytes.count / 2)
            sample.frames.forEach { data.append($0) }
            (0..<Self.zeroSamplesAfterEach).forEach { _ in data.append(Int16(0)) }
            let loop = sample.loop ?? 0..<0
            placements.append(
                Placement(
                    start: start, end: start + UInt32(sample.frames.count),
                    loopStart: start + UInt32(loop.lowerBound), loopEnd: start + UInt32(loop.upperBound)))
        }
        return file(version: 2, samples: data.bytes, placements: placements, sampleType: Self.monoSample)
    }

    /// Each sample encoded apart by `sox`, the streams one after another in `smpl`: a header's
    /// start and end are byte offsets into the chunk, and its loop counts frames from the start of
    /// the decoded sample (FluidSynth's `fluid_defsfont_load_sampledata`). No zero samples follow.
    func soundFont3() throws -> [UInt8] {
        var data: [UInt8] = []
        var placements: [Placement] = []
        for waveform in bank.waveforms {
            let sample = waveform.sample
            let stream = try OggVorbisEncoder.encode(sample.frames, sampleRate: TestWaveform.sampleRate)
            let loop = sample.loop ?? 0..<0
            placements.append(
                Placement(
                    start: UInt32(data.count), end: UInt32(data.count + stream.count),
                    loopStart: UInt32(loop.lowerBound), loopEnd: UInt32(loop.upperBound)))
            data += stream
        }
        return file(version: 3, samples: data, placements: placements, sampleType: Self.monoSample | Self.vorbisCompressed)
    }

    private func file(version: UInt16, samples: [UInt8], placements: [Placement], sampleType: UInt16) -> [UInt8] {
        RIFFBuilder.file(form: "sfbk") { file in
            file.append(list: "INFO") { info in
                info.append(
                    chunk: "ifil",
                    body: RIFFBuilder.body {
                        $0.append(version)
                        $0.append(UInt16(1))
                    })
                info.append(text: "isng", "EMU8000")
                info.append(text: "INAM", bank.name)
                info.append(text: "ISFT", "smfplay tests")
            }
            file.append(list: "sdta") { $0.append(chunk: "smpl", body: samples) }
            file.append(list: "pdta") { tables(into: &$0, placements: placements, sampleType: sampleType) }
        }
    }

    private func tables(into pdta: inout RIFFBuilder, placements: [Placement], sampleType: UInt16) {
        let presets = bank.presets
        // phdr: one bag each; the terminal record's bag index is the number of bags.
        pdta.append(
            chunk: "phdr",
            body: RIFFBuilder.body { table in
                for (index, preset) in presets.enumerated() {
                    table.append(name: preset.name, width: 20)
                    table.append(UInt16(preset.program))
                    table.append(UInt16(preset.bank))
                    table.append(UInt16(index))
                    (0..<3).forEach { _ in table.append(UInt32(0)) } // library, genre, morphology
                }
                table.append(name: "EOP", width: 20)
                table.append(UInt16(0))
                table.append(UInt16(0))
                table.append(UInt16(presets.count))
                (0..<3).forEach { _ in table.append(UInt32(0)) }
            })
        // pbag: one generator (the instrument) per preset zone, no modulators.
        pdta.append(chunk: "pbag", body: bags(generatorsPerZone: 1, zones: presets.count))
        pdta.append(chunk: "pmod", body: [UInt8](repeating: 0, count: 10))
        pdta.append(
            chunk: "pgen",
            body: RIFFBuilder.body { table in
                for index in presets.indices { generator(.instrument, UInt16(index), into: &table) }
                table.append(UInt32(0))
            })
        pdta.append(
            chunk: "inst",
            body: RIFFBuilder.body { table in
                for (index, preset) in presets.enumerated() {
                    table.append(name: preset.name, width: 20)
                    table.append(UInt16(index))
                }
                table.append(name: "EOI", width: 20)
                table.append(UInt16(presets.count))
            })
        let zones = presets.map(instrumentZone)
        pdta.append(
            chunk: "ibag",
            body: RIFFBuilder.body { table in
                var first = 0
                for zone in zones + [[]] {
                    table.append(UInt16(first))
                    table.append(UInt16(0))
                    first += zone.count
                }
            })
        pdta.append(chunk: "imod", body: [UInt8](repeating: 0, count: 10))
        pdta.append(
            chunk: "igen",
            body: RIFFBuilder.body { table in
                for (kind, amount) in zones.joined() { generator(kind, amount, into: &table) }
                table.append(UInt32(0))
            })
        pdta.append(
            chunk: "shdr",
            body: RIFFBuilder.body { table in
                for (waveform, placement) in zip(bank.waveforms, placements) {
                    let sample = waveform.sample
                    table.append(name: sample.name, width: 20)
                    table.append(placement.start)
                    table.append(placement.end)
                    table.append(placement.loopStart)
                    table.append(placement.loopEnd)
                    table.append(UInt32(TestWaveform.sampleRate))
                    table.append(sample.rootKey)
                    table.append(Int8(0)) // pitch correction
                    table.append(UInt16(0)) // sample link
                    table.append(sampleType)
                }
                table.append(name: "EOS", width: 20)
                table.append(bytes: [UInt8](repeating: 0, count: 26))
            })
    }

    /// The generators of a preset's instrument zone: the key range first and the sample last, as
    /// the specification orders them. A drum kit's pitch does not follow the key (scale tuning 0):
    /// every key plays its sound as recorded.
    private func instrumentZone(_ preset: TestSoundBank.Preset) -> [(Generator, UInt16)] {
        var zone: [(Generator, UInt16)] = [
            (.keyRange, 127 << 8),
            (.releaseVolumeEnvelope, UInt16(bitPattern: Self.timecents(preset.releaseSeconds))),
            (.sampleModes, preset.waveform.sample.loop == nil ? 0 : 1),
        ]
        if preset.isDrumKit { zone.append((.scaleTuning, 0)) }
        zone.append((.sampleID, UInt16(bank.waveforms.firstIndex(of: preset.waveform)!)))
        return zone
    }

    /// A bag table of `zones` zones with `generatorsPerZone` generators each, and its terminal record.
    private func bags(generatorsPerZone: Int, zones: Int) -> [UInt8] {
        RIFFBuilder.body { table in
            for zone in 0...zones {
                table.append(UInt16(zone * generatorsPerZone))
                table.append(UInt16(0))
            }
        }
    }

    private func generator(_ generator: Generator, _ amount: UInt16, into table: inout RIFFBuilder) {
        table.append(generator.rawValue)
        table.append(amount)
    }

    /// Seconds as the SoundFont's absolute timecents, 1200 × log2(seconds).
    static func timecents(_ seconds: Double) -> Int16 {
        Int16((1200 * log2(max(seconds, 0.001))).rounded())
    }
}
