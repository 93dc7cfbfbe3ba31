import SMF

/// What the ``SoundModule`` drives: FluidSynth, through the synthesizer.
protocol SoundModuleOutput {
    /// A channel message for `part`, its key already shifted.
    func send(status: UInt8, part: Int, data1: UInt8, data2: UInt8)
    /// Plays `bank`:`program` on `part` (bank 128 for drum kits), or what stands in for it, from
    /// the SoundFonts of `mode`.
    func select(part: Int, isDrum: Bool, bank: Int, program: Int, mode: MIDIMode)
    /// The offsets every voice of `part` gets on top of its instrument's own: tuning in cents and
    /// pan from −1 to 1 (FluidSynth keeps them per channel and clears them on a reset or reset
    /// all controllers, so the module gives them again).
    func offset(part: Int, cents: Float, pan: Float)
    /// Voices, controllers and programs back as FluidSynth starts them.
    func resetSynthesizer()
    func setMasterVolume(_ volume: Float)
    /// A GS reverb macro (0–7); nil is the configured reverb.
    func setReverb(macro: Int?)
    /// A GS chorus macro (0–7); nil is the configured chorus.
    func setChorus(macro: Int?)
}
