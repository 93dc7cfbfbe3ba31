/// Writes a ``TestSoundBank`` as a Downloadable Sounds level 1 file (RIFF form `DLS `), as
/// FluidSynth 2.3 reads it through libinstpatch.
///
/// The layout: `colh` (the number of instruments), `vers`, the instruments (`lins`: an `ins ` list
/// each, holding `insh`, its regions in `lrgn`/`rgn ` with `rgnh`, `wsmp` and `wlnk` (one for the
/// whole keyboard; a drum kit one a key), the release in `lart`/`art1`, and its name in INFO), the pool table `ptbl` (each wave's offset from the first
/// byte after `wvpl`'s type), the waves (`wvpl`: a `wave` list each, `fmt ` 16-bit PCM mono,
/// `data`, and `wsmp` with its root key and loop), and the collection's INFO.
///
/// libinstpatch 1.1.6 (Debian 12) turns each region into a SoundFont voice with its key and
/// velocity ranges, sample, root key, fine tune and loop, and nothing else: the `art1`
/// articulation written here is the standard's, and is not heard (`SoundBankReleaseTests`).
public struct DLSWriter: Sendable {
    /// Where a preset's bank goes in `insh`'s `ulBank`.
    public enum BankField: Sendable {
        /// In bits 0–6, where libinstpatch hands it to FluidSynth as the bank number itself: a
        /// preset at bank 5 is FluidSynth's bank 5 (the default).
        case asFluidSynthReads
        /// As the DLS specification places a bank select: bits 8–14 are controller 0 (MSB), bits
        /// 0–6 controller 32 (LSB). libinstpatch passes the field on unchanged, so FluidSynth lists
        /// a preset at MSB 5 as bank 1280.
        case asBankSelectMSB
    }

    public let bank: TestSoundBank
    public let bankField: BankField

    public init(bank: TestSoundBank, bankField: BankField = .asFluidSynthReads) {
        self.bank = bank
        self.bankField = bankField
    }

    /// `ulBank`'s flag for a drum instrument.
    static let drumFlag: UInt32 = 0x8000_0000
    /// `wsmp` options: no truncation or compression of the sample allowed (F_WSMP_NO_TRUNCATION,
    /// F_WSMP_NO_COMPRESSION).
    private static let sampleOptions: UInt32 = 3
    /// The articulation's destination EG1 (volume envelope) release time, from no source.
    private static let volumeEnvelopeRelease: UInt16 = 0x0209

    public func bytes() -> [UInt8] {
        let waves = bank.waveforms.map(wave)
        return RIFFBuilder.file(form: "DLS ") { file in
            file.append(chunk: "colh", body: RIFFBuilder.body { $0.append(UInt32(bank.presets.count)) })
            file.append(
                chunk: "vers",
                body: RIFFBuilder.body {
                    $0.append(UInt32(1 << 16))
                    $0.append(UInt32(0))
                })
            file.append(list: "lins") { instruments in
                for preset in bank.presets { instrument(preset, into: &instruments) }
            }
            file.append(
                chunk: "ptbl",
                body: RIFFBuilder.body { table in
                    table.append(UInt32(8))
                    table.append(UInt32(waves.count))
                    var offset = 0
                    for wave in waves {
                        table.append(UInt32(offset))
                        offset += wave.count
                    }
                })
            file.append(list: "wvpl") { pool in waves.forEach { pool.append(bytes: $0) } }
            file.append(list: "INFO") { $0.append(text: "INAM", bank.name) }
        }
    }

    private func instrument(_ preset: TestSoundBank.Preset, into instruments: inout RIFFBuilder) {
        let waveIndex = bank.waveforms.firstIndex(of: preset.waveform)!
        let sample = preset.waveform.sample
        // A drum kit has a region for each key, each with that key as its root: every key plays
        // the sound as recorded (DLS level 1 has no scale tuning, and libinstpatch reads no
        // articulation).
        let keys = preset.isDrumKit ? Array(UInt8(0)...127).map { $0...$0 } : [UInt8(0)...127]
        instruments.append(list: "ins ") { instrument in
            instrument.append(
                chunk: "insh",
                body: RIFFBuilder.body { header in
                    header.append(UInt32(keys.count)) // regions
                    header.append(ulBank(preset))
                    header.append(UInt32(preset.program))
                })
            instrument.append(list: "lrgn") { regions in
                for range in keys {
                    regions.append(list: "rgn ") { region in
                        region.append(
                            chunk: "rgnh",
                            body: RIFFBuilder.body { header in
                                [range.lowerBound, range.upperBound, 0, 127].forEach { header.append(UInt16($0)) } // keys, velocities
                                header.append(UInt16(0)) // options
                                header.append(UInt16(0)) // key group
                            })
                        var regionSample = sample
                        if preset.isDrumKit { regionSample.rootKey = range.lowerBound }
                        region.append(chunk: "wsmp", body: Self.sampleInfo(regionSample))
                        region.append(
                            chunk: "wlnk",
                            body: RIFFBuilder.body { link in
                                link.append(UInt16(0)) // options
                                link.append(UInt16(0)) // phase group
                                link.append(UInt32(1)) // channel: left (mono)
                                link.append(UInt32(waveIndex)) // pool table index
                            })
                    }
                }
            }
            instrument.append(list: "lart") { articulators in
                articulators.append(
                    chunk: "art1",
                    body: RIFFBuilder.body { block in
                        block.append(UInt32(8))
                        block.append(UInt32(1)) // connections
                        block.append(UInt16(0)) // source: none
                        block.append(UInt16(0)) // control: none
                        block.append(Self.volumeEnvelopeRelease)
                        block.append(UInt16(0)) // transform: none
                        block.append(Int32(SoundFontWriter.timecents(preset.releaseSeconds)) << 16)
                    })
            }
            instrument.append(list: "INFO") { $0.append(text: "INAM", preset.name) }
        }
    }

    private func ulBank(_ preset: TestSoundBank.Preset) -> UInt32 {
        if preset.isDrumKit { return Self.drumFlag }
        switch bankField {
        case .asFluidSynthReads: return UInt32(preset.bank)
        case .asBankSelectMSB: return UInt32(preset.bank) << 8
        }
    }

    private func wave(_ waveform: TestWaveform) -> [UInt8] {
        let sample = waveform.sample
        var pool = RIFFBuilder()
        pool.append(list: "wave") { wave in
            wave.append(
                chunk: "fmt ",
                body: RIFFBuilder.body { format in
                    format.append(UInt16(1)) // PCM
                    format.append(UInt16(1)) // mono
                    format.append(UInt32(TestWaveform.sampleRate))
                    format.append(UInt32(2 * TestWaveform.sampleRate)) // bytes a second
                    format.append(UInt16(2)) // block align
                    format.append(UInt16(16)) // bits
                })
            wave.append(chunk: "data", body: RIFFBuilder.body { data in sample.frames.forEach { data.append($0) } })
            wave.append(chunk: "wsmp", body: Self.sampleInfo(sample))
            wave.append(list: "INFO") { $0.append(text: "INAM", sample.name) }
        }
        return pool.bytes
    }

    /// A `wsmp` chunk: root key, no fine tune or gain, and the sample's loop (a forward loop, as
    /// a start and a length in frames) if it has one.
    private static func sampleInfo(_ sample: TestWaveform.Sample) -> [UInt8] {
        RIFFBuilder.body { info in
            info.append(UInt32(20))
            info.append(UInt16(sample.rootKey))
            info.append(Int16(0)) // fine tune
            info.append(Int32(0)) // gain
            info.append(sampleOptions)
            info.append(UInt32(sample.loop == nil ? 0 : 1))
            if let loop = sample.loop {
                info.append(UInt32(16))
                info.append(UInt32(0)) // forward
                info.append(UInt32(loop.lowerBound))
                info.append(UInt32(loop.count))
            }
        }
    }
}
