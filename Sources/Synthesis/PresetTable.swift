import CFluidSynth

/// Which loaded SoundFont plays each bank and program, for one stack of SoundFonts (the first
/// that has a preset wins), looked up without allocating: the synthesizer selects presets on the
/// audio thread.
///
/// Banks are the SoundFont's: 0–127 for instruments (a GS variation, an XG or GM2 LSB bank), 128
/// for drum kits. SoundFont banks above 128 are not reachable from any standard's bank select.
struct PresetTable {
    static let bankCount = 129
    static let drumBank = 128
    /// `owners[bank * 128 + program]`: the FluidSynth id of the SoundFont that has it, or -1.
    private var owners: [Int32]

    /// - Parameter soundFontIDs: FluidSynth's ids of the stack's SoundFonts, first wins.
    init(synth: OpaquePointer, soundFontIDs: [Int32]) {
        owners = Array(repeating: -1, count: Self.bankCount * 128)
        for id in soundFontIDs.reversed() {
            guard let soundFont = fluid_synth_get_sfont_by_id(synth, id) else { continue }
            fluid_sfont_iteration_start(soundFont)
            while let preset = fluid_sfont_iteration_next(soundFont) {
                let bank = Int(fluid_preset_get_banknum(preset))
                let program = Int(fluid_preset_get_num(preset))
                guard (0..<Self.bankCount).contains(bank), (0..<128).contains(program) else { continue }
                owners[bank * 128 + program] = id
            }
        }
    }

    /// The SoundFont that has `bank`:`program`, if any.
    func soundFont(bank: Int, program: Int) -> Int32? {
        guard (0..<Self.bankCount).contains(bank), (0..<128).contains(program) else { return nil }
        let id = owners[bank * 128 + program]
        return id >= 0 ? id : nil
    }

    /// What plays when a song asks for `bank`:`program`: that preset, or as a Sound Canvas falls
    /// back, the capital tone (the same program in bank 0) for a missing variation and the
    /// standard kit (128:0) for a missing drum kit; then any kit or instrument at all, so that a
    /// part is never silent while the SoundFonts have something to play.
    func resolve(bank: Int, program: Int) -> (soundFont: Int32, bank: Int, program: Int)? {
        if let id = soundFont(bank: bank, program: program) { return (id, bank, program) }
        let fallback = bank == Self.drumBank ? (bank: Self.drumBank, program: 0) : (bank: 0, program: program)
        if let id = soundFont(bank: fallback.bank, program: fallback.program) { return (id, fallback.bank, fallback.program) }
        if let id = soundFont(bank: 0, program: 0) { return (id, 0, 0) }
        return nil
    }
}
