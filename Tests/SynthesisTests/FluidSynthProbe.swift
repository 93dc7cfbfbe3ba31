import CFluidSynth

/// What a FluidSynth synthesizer holds and how it sounds, read through FluidSynth's own API: for
/// tests that compare a SoundFont loaded one way with the same loaded another.
enum FluidSynthProbe {
    /// Bank, program and name of every preset, in FluidSynth's order.
    static func presets(of synth: OpaquePointer, soundFont id: Int32) -> [String] {
        guard let soundFont = fluid_synth_get_sfont_by_id(synth, id) else { return [] }
        var found: [String] = []
        fluid_sfont_iteration_start(soundFont)
        while let preset = fluid_sfont_iteration_next(soundFont) {
            let name = fluid_preset_get_name(preset).map { String(cString: $0) } ?? ""
            found.append("\(fluid_preset_get_banknum(preset)):\(fluid_preset_get_num(preset)) \(name)")
        }
        return found
    }

    /// A quarter of a second each of a chord on every eighth program and on drums: sounds from
    /// all through the sample chunk, which the reader reads in two halves at once.
    static func chords(on synth: OpaquePointer) -> [Float] {
        let programs = Array(stride(from: Int32(0), to: 128, by: 8)) + [127, -1]
        var audio = [Float](repeating: 0, count: 2 * programs.count * 11_025)
        for (index, program) in programs.enumerated() {
            let channel: Int32 = program < 0 ? 9 : 0
            if program >= 0 { fluid_synth_program_change(synth, channel, program) }
            for key: Int32 in [36, 42, 60, 64, 67] { fluid_synth_noteon(synth, channel, key, 100) }
            audio.withUnsafeMutableBufferPointer { buffer in
                let start = buffer.baseAddress! + 2 * index * 11_025
                _ = fluid_synth_write_float(synth, 11_025, start, 0, 2, start, 1, 2)
            }
            fluid_synth_all_notes_off(synth, channel)
        }
        return audio
    }
}
