import CFluidSynth

/// Which loaded SoundFont plays each bank and program, for one stack of SoundFonts (the first
/// that has a preset wins), looked up without allocating: the synthesizer selects presets on the
/// audio thread.
///
/// Banks are the SoundFont's: 0–127 for instruments (a GS variation, an XG or GM2 LSB bank), 128
/// for drum kits. SoundFont banks above 128 are not reachable from any standard's bank select. A
/// DLS bank's instruments come through libinstpatch at 256 × MSB + LSB, as DLS writes them: they
/// answer to their MSB (their LSB when the MSB is 0), as a GS module's variations do.
struct PresetTable {
    static let bankCount = 129
    static let drumBank = 128

    /// A preset as FluidSynth selects it: its SoundFont's id and its bank in that SoundFont (which
    /// differs from the bank the song selects for a song bank heard at an offset, and for DLS).
    fileprivate struct Owner {
        static let none = Owner(soundFont: -1, bank: 0)
        var soundFont: Int32
        var bank: Int32
    }

    /// `owners[bank * 128 + program]`, by the bank the song selects.
    private var owners: [Owner]

    /// - Parameters:
    ///   - soundFontIDs: FluidSynth's ids of the stack's SoundFonts, first wins.
    ///   - songBank: the bank the song brings, above them all, and its id.
    ///   - downloadableSounds: the ids of the DLS banks among them.
    init(synth: OpaquePointer, soundFontIDs: [Int32], songBank: (bank: SongSoundBank, id: Int32)? = nil, downloadableSounds: Set<Int32> = []) {
        owners = Array(repeating: .none, count: Self.bankCount * 128)
        for id in soundFontIDs.reversed() {
            Self.presets(of: id, in: synth, isDLS: downloadableSounds.contains(id)) { bank, soundFontBank, program in
                owners[bank * 128 + program] = Owner(soundFont: id, bank: soundFontBank)
            }
        }
        if let (songBank, id) = songBank {
            Self.presets(of: id, in: synth, isDLS: downloadableSounds.contains(id)) { bank, soundFontBank, program in
                owners[songBank.selectedBank(ofPresetAt: bank) * 128 + program] = Owner(soundFont: id, bank: soundFontBank)
            }
        }
    }

    /// Calls `body` with the bank a song selects, the bank in the SoundFont and the program of each
    /// preset of SoundFont `id` that a song can select.
    private static func presets(
        of id: Int32, in synth: OpaquePointer, isDLS: Bool, _ body: (_ bank: Int, _ soundFontBank: Int32, _ program: Int) -> Void
    ) {
        guard let soundFont = fluid_synth_get_sfont_by_id(synth, id) else { return }
        fluid_sfont_iteration_start(soundFont)
        while let preset = fluid_sfont_iteration_next(soundFont) {
            let soundFontBank = fluid_preset_get_banknum(preset)
            var bank = Int(soundFontBank)
            if isDLS, bank > drumBank {
                let (msb, lsb) = (bank >> 8 & 0x7F, bank & 0x7F)
                bank = msb != 0 ? msb : lsb
            }
            let program = Int(fluid_preset_get_num(preset))
            guard (0..<Self.bankCount).contains(bank), (0..<128).contains(program) else { continue }
            body(bank, soundFontBank, program)
        }
    }

    /// The SoundFont that plays `bank`:`program` as the song selects it, and the bank to select in it.
    private func owner(bank: Int, program: Int) -> Owner? {
        guard (0..<Self.bankCount).contains(bank), (0..<128).contains(program) else { return nil }
        let owner = owners[bank * 128 + program]
        return owner.soundFont >= 0 ? owner : nil
    }

    /// A preset found for a song's bank and program.
    struct Played {
        var soundFont: Int32
        /// The preset's bank in its SoundFont, for FluidSynth's selection.
        var soundFontBank: Int
        /// The bank and program it answers to in the song: those asked for unless it stands in for them.
        var bank: Int
        var program: Int
    }

    /// What plays when a song asks for `bank`:`program`: that preset, or as a Sound Canvas falls
    /// back, the capital tone (the same program in bank 0) for a missing variation and the
    /// standard kit (128:0) for a missing drum kit; then any kit or instrument at all, so that a
    /// part is never silent while the SoundFonts have something to play. (No loop over the three:
    /// it runs on the audio thread, and an array literal allocates.)
    func resolve(bank: Int, program: Int) -> Played? {
        if let owner = owner(bank: bank, program: program) { return Played(owner, bank: bank, program: program) }
        let fallback = bank == Self.drumBank ? (bank: Self.drumBank, program: 0) : (bank: 0, program: program)
        if let owner = owner(bank: fallback.bank, program: fallback.program) { return Played(owner, bank: fallback.bank, program: fallback.program) }
        if let owner = owner(bank: 0, program: 0) { return Played(owner, bank: 0, program: 0) }
        return nil
    }
}

extension PresetTable.Played {
    fileprivate init(_ owner: PresetTable.Owner, bank: Int, program: Int) {
        self.init(soundFont: owner.soundFont, soundFontBank: Int(owner.bank), bank: bank, program: program)
    }
}
