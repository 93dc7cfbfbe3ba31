import CFluidSynth
import SMF
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// A FluidSynth synthesizer with a stack of SoundFonts, and the sound module around it that reads
/// a song as its standard (GM, GS, XG, GM2) means it: MIDI messages in, stereo float audio out.
///
/// Not thread-safe by design: FluidSynth's own API lock is turned off, so
/// messages must be sent from the thread that renders (the sequencer does).
public final class Synthesizer: @unchecked Sendable {
    // @unchecked: confined. It is made on one thread and handed to the one that sends and renders,
    // one at a time (`render` checks it in debug builds); what other threads read is immutable
    // (settings, preset names) or atomic (keys, channel activity, the listener's changes).
    /// Channels across MIDI ports: the port meta event selects a block of 16.
    public static let channelCount = 64

    /// FluidSynth and its SoundFonts (it frees them).
    private let instance: FluidSynthInstance
    private let synth: OpaquePointer
    public let configuration: SynthesizerSettings
    public let soundFonts: SoundFontStack
    /// Stereo outputs, each with its own reverb and chorus: 1 renders the mix
    /// (``render(into:frames:)``); more render channel c into output c % `outputs`, for stems
    /// (``render(into:at:frames:)``).
    public let outputs: Int
    /// Why the song's bank (``SoundFontStack/songBank``) is not heard, when it could not be loaded:
    /// the synthesizer plays from the rest of the stack.
    public private(set) var songBankProblem: SynthesisError?
    /// The preset tables of the stacks, and which one plays each standard.
    private let presetTables: [PresetTable]
    private let presetTableOfMode: [MIDIMode: Int]
    private var module: SoundModule
    /// Whether FluidSynth's channel plays drum kits, as last set.
    private var drumChannels = [Bool](repeating: false, count: channelCount)
    /// Master volume from a GM, GS or XG master volume message, 0–1,
    /// applied to the output like a mixer's master fader.
    private(set) var masterVolume: Float = 1
    /// Frames rendered since creation: FluidSynth renders whole 64-frame blocks
    /// and hands out the rest of a block on the next call.
    private var framesRendered = 0
    /// Where the rest of a block rendered before a reset goes (64 stereo frames).
    private let discarded = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 64)
    /// What played in place of presets no SoundFont has, recorded on the audio thread without allocating.
    private var substitutionLog = SubstitutionLog()
    /// Each channel's substitution, recorded once a note sounds on it: a channel set up and never
    /// played (a song's reset selects the drum kit on channel 10 in a piano piece) has none to say.
    private var unheardSubstitutions = [PresetSubstitution?](repeating: nil, count: channelCount)
    /// The keys down, as the messages sent so far leave them: for an interface to show.
    public let pressedKeys: PressedKeys
    /// Each channel's preset and how hard it plays: for an interface to show.
    public let activity: ChannelActivity
    /// Every preset's name in the SoundFonts loaded, by `soundFont << 24 | bank << 8 | program`.
    private let presetNames: [Int64: String]
    /// The listener's transposition and channels heard (and the tempo, which the sequencer reads).
    public let performance: LivePerformance
    /// The number of the last change of `performance` the sound module has taken.
    private var performanceChangesTaken = 0
    private let exclusiveUse = ExclusiveUse()

    /// A synthesizer with one SoundFont.
    public convenience init(settings configuration: SynthesizerSettings, soundFontPath: FilePath) throws(SynthesisError) {
        try self.init(settings: configuration, soundFonts: SoundFontStack([soundFontPath]))
    }

    /// A synthesizer; with `lead`, one that plays some of the keys of the songs `lead` plays (a
    /// part of a split song, ``NoteSplit``): it takes the listener's changes from `lead`'s
    /// ``performance`` and shows its keys and channels in `lead`'s ``pressedKeys`` and
    /// ``activity``, so that an interface reading `lead` sees the whole song. (Both are atomic
    /// per key and channel: parts play different keys, and send the same channel messages.)
    /// `preload`, the SoundFonts a command started loading ahead: taken if they are these, at this
    /// rate (``SynthesizerPreload``). `outputs` above 1: see ``outputs``.
    public init(
        settings configuration: SynthesizerSettings, soundFonts: SoundFontStack, lead: Synthesizer? = nil,
        preload: SynthesizerPreload? = nil, outputs: Int = 1
    ) throws(SynthesisError) {
        performance = lead?.performance ?? LivePerformance()
        pressedKeys = lead?.pressedKeys ?? PressedKeys()
        activity = lead?.activity ?? ChannelActivity()
        let recipe = FluidSynthInstance.Recipe(sampleRate: configuration.sampleRate, soundFonts: soundFonts.allPaths, outputs: outputs)
        let instance: FluidSynthInstance
        if let preloaded = preload?.take(recipe) {
            instance = preloaded
        } else {
            instance = try FluidSynthInstance(recipe)
        }
        // The song's bank goes on whichever instance, made here or ahead: FluidSynth takes more
        // SoundFonts after its first. One that cannot be loaded leaves the song to the stack.
        if let songBank = soundFonts.songBank {
            do {
                try instance.add(songBank: songBank)
            } catch {
                songBankProblem = .songBankNotLoaded(songBank, because: error)
            }
        }
        let synth = instance.synth
        let ids = instance.soundFontIDs
        // What FluidSynth would have read from its settings at creation, set through its API: the
        // instance may have been made before these were known.
        fluid_synth_set_gain(synth, Float(configuration.gain))
        guard fluid_synth_set_polyphony(synth, Int32(configuration.polyphony)) == FLUID_OK else {
            throw .cannotCreateSynthesizer(reason: "FluidSynth refused a polyphony of \(configuration.polyphony)")
        }
        // Their parameters are set with the rest of the state, by `reset()` below.
        fluid_synth_reverb_on(synth, -1, configuration.reverb == nil ? 0 : 1)
        fluid_synth_chorus_on(synth, -1, configuration.chorus == nil ? 0 : 1)
        fluid_synth_set_interp_method(synth, -1, configuration.interpolation.fluidMethod)
        var tables: [PresetTable] = []
        var tableOfStack: [[FilePath]: Int] = [:]
        var tableOfMode: [MIDIMode: Int] = [:]
        for mode in MIDIMode.allCases {
            let stack = soundFonts.paths(for: mode)
            if let index = tableOfStack[stack] {
                tableOfMode[mode] = index
                continue
            }
            tables.append(
                PresetTable(
                    synth: synth, soundFontIDs: stack.compactMap { ids[$0] }, songBank: instance.songBank,
                    downloadableSounds: instance.downloadableSoundsIDs))
            tableOfStack[stack] = tables.count - 1
            tableOfMode[mode] = tables.count - 1
        }
        var names: [Int64: String] = [:]
        for id in Array(ids.values) + (instance.songBank.map { [$0.id] } ?? []) {
            guard let soundFont = fluid_synth_get_sfont_by_id(synth, id) else { continue }
            fluid_sfont_iteration_start(soundFont)
            while let preset = fluid_sfont_iteration_next(soundFont) {
                let key = Int64(id) << 24 | Int64(fluid_preset_get_banknum(preset)) << 8 | Int64(fluid_preset_get_num(preset))
                names[key] = fluid_preset_get_name(preset).map { String(cString: $0) }
            }
        }
        presetNames = names
        self.instance = instance
        self.synth = synth
        self.configuration = configuration
        self.soundFonts = soundFonts
        self.outputs = outputs
        presetTables = tables
        presetTableOfMode = tableOfMode
        module = SoundModule(chosenMode: configuration.midiMode, keyShift: configuration.keyShift)
        // FluidSynth applies some of the settings above where it renders, at its next block (the
        // polyphony reallocates its mixer's voice lists): a silent block rendered here, so that
        // the audio thread's first block does not.
        discard(frames: 64)
        reset()
    }

    deinit {
        discarded.deallocate()
    }

    /// Sends a channel message; `channel` may be 0–63 (port × 16 + channel). The sound module
    /// reads bank selects and program changes as the song's standard means them, and moves keys.
    @inline(__always)
    public func send(status: UInt8, channel: Int, data1: UInt8, data2: UInt8) {
        module.receive(status: status, channel: channel, data1: data1, data2: data2, output: self)
    }

    /// Sends a complete system exclusive message, without its `F0` and `F7`. The sound module acts
    /// on the GM, GM2, GS and XG messages; FluidSynth gets the MIDI Tuning Standard ones, the only
    /// others it knows (its own handling of the GM, GS and XG ones would fight the module's).
    public func sendSystemExclusive(_ message: UnsafeBufferPointer<UInt8>) {
        guard let first = message.first else { return }
        if first == 0x7E || first == 0x7F, message.count > 2, message[2] == 0x08 {
            message.withMemoryRebound(to: CChar.self) { bytes in
                _ = fluid_synth_sysex(synth, bytes.baseAddress, Int32(bytes.count), nil, nil, nil, 0)
            }
            return
        }
        SoundModuleCommand.decode(message) { command in module.perform(command, output: self) }
    }

    /// The standard the song plays under now.
    public var mode: MIDIMode { module.mode }

    /// The presets the song asked for that no SoundFont has, and what played instead (read it
    /// after rendering, not while another thread renders).
    public var substitutions: [PresetSubstitution] { substitutionLog.entries }

    /// Renders interleaved stereo frames, replacing what `buffer` held.
    /// FluidSynth works in blocks of 64 frames; a message sent between two
    /// calls takes effect at the next block boundary.
    @inline(__always)
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        // FluidSynth's stereo output is its first output alone.
        precondition(outputs == 1, "a synthesizer with \(outputs) outputs renders stems")
        exclusiveUse.run("a synthesizer") {
            followPerformance()
            fluid_synth_write_float(synth, Int32(frames), buffer, 0, 2, buffer, 1, 2)
            framesRendered &+= frames
            if masterVolume != 1 {
                for index in 0..<2 * frames { buffer[index] *= masterVolume }
            }
        }
    }

    /// Renders `frames` frames of every output into `stems` from its frame `offset`, replacing
    /// what its planes held there. Blocks and messages as ``render(into:frames:)``.
    @inline(__always)
    public func render(into stems: StemBuffers, at offset: Int, frames: Int) {
        precondition(stems.outputs == outputs && offset + frames <= stems.capacity, "stems not made for this synthesizer's render")
        exclusiveUse.run("a synthesizer") {
            followPerformance()
            stems.clear(from: offset, frames: frames)
            stems.point(at: offset)
            fluid_synth_process(synth, Int32(frames), Int32(4 * outputs), stems.effectPlanes, Int32(2 * outputs), stems.dryPlanes)
            framesRendered &+= frames
            if masterVolume != 1 { stems.scale(from: offset, frames: frames) { _ in masterVolume } }
        }
    }

    /// Renders `frames` frames that nobody hears, as ``render(into:frames:)`` or ``render(into:at:frames:)`` would.
    private func discard(frames: Int) {
        guard outputs > 1 else { return render(into: discarded, frames: frames) }
        // Blocks rendered by `fluid_synth_write_float` would keep their effects in their first output,
        // and the rest of one would be handed to the next stems: FluidSynth renders what it is not
        // given buffers for, and drops it.
        exclusiveUse.run("a synthesizer") {
            fluid_synth_process(synth, Int32(frames), 0, nil, 0, nil)
            framesRendered &+= frames
        }
    }

    /// Takes a change of ``performance``, if there was one since the last call: from the next
    /// note on. The sequencer calls it before the events of each buffer.
    @inline(__always)
    func followPerformance() {
        let changes = performance.changeCount
        guard changes != performanceChangesTaken else { return }
        performanceChangesTaken = changes
        module.play(performance.current, output: self)
    }

    /// Plays a note on `channel` as the song's messages so far have set it up, reads the voices it
    /// starts, and cuts them: for estimating what a song costs to render (``Sequencer/noteLoads(probe:)``).
    /// The synthesizer is left as if the note had never played, but for the blocks rendered, which
    /// its reverb and chorus do not see. Once reset, it renders as a new synthesizer does, but for
    /// the first block (64 frames) of a voice a probe rendered with (``soundingSeconds(channel:key:velocity:limit:)``):
    /// FluidSynth ramps a voice's gain from where it last was (measured on the corpus: at the
    /// song's first note, at most 3.3e-4 apart, -70 dBFS).
    public func voiceProfile(channel: Int, key: UInt8, velocity: UInt8) -> VoiceProfile {
        probe(channel: channel, key: key, velocity: velocity) { voices in
            var profile = VoiceProfile(voices: voices.count, releaseSeconds: 0, loops: false)
            for voice in voices {
                // Generators in timecents: 2^(value / 1200) seconds.
                let release = pow(2, Double(fluid_voice_gen_get(voice, Int32(GEN_VOLENVRELEASE.rawValue))) / 1200)
                profile.releaseSeconds = max(profile.releaseSeconds, release)
                // Sample modes 1 and 3 loop.
                if Int(fluid_voice_gen_get(voice, Int32(GEN_SAMPLEMODE.rawValue))) & 1 == 1 { profile.loops = true }
                profile.exclusiveClass = max(profile.exclusiveClass, Int(fluid_voice_gen_get(voice, Int32(GEN_EXCLUSIVECLASS.rawValue))))
            }
            return profile
        }
    }

    /// How long a note is heard with its key held, up to `limit` seconds: for a sound that does
    /// not loop, how long its samples last at the note's pitch (a kick drum a fraction of a
    /// second, a ride cymbal seconds), which FluidSynth's API does not tell. Found by rendering the
    /// note alone, without interpolation (which changes no voice's length, and costs least), to
    /// the end of its last block with sound: FluidSynth keeps a voice whose sample has faded below
    /// the noise floor but no longer computes it, so that such a voice costs next to nothing.
    /// The synthesizer is left as ``voiceProfile(channel:key:velocity:)`` says.
    public func soundingSeconds(channel: Int, key: UInt8, velocity: UInt8, limit: Double) -> Double {
        // It listens to the mix, which a synthesizer with stems does not render.
        precondition(outputs == 1, "a synthesizer with \(outputs) outputs cannot measure a note")
        return probe(channel: channel, key: key, velocity: velocity, interpolation: .nearest) { voices in
            let started = voices.map { (voice: $0, id: fluid_voice_get_id($0)) }
            let step = 1_024
            let limitFrames = Int(limit * configuration.sampleRate)
            // Silence this long after sound ends the search: what is left is the quiet tail.
            let quietFrames = Int(0.25 * configuration.sampleRate)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * step)
            defer { scratch.deallocate() }
            var frames = 0
            var heardUntil = 0
            while frames < limitFrames, frames - heardUntil < quietFrames,
                started.contains(where: { fluid_voice_get_id($0.voice) == $0.id && fluid_voice_is_playing($0.voice) != 0 })
            {
                scratch.update(repeating: 0, count: 2 * step)
                fluid_synth_write_float(synth, Int32(step), scratch, 0, 2, scratch, 1, 2)
                framesRendered &+= step
                frames += step
                if UnsafeBufferPointer(start: scratch, count: 2 * step).contains(where: { $0 != 0 }) { heardUntil = frames }
            }
            return Double(min(heardUntil, limitFrames)) / configuration.sampleRate
        }
    }

    /// Plays a note on `channel` as the song's messages so far have set it up, hands `body` the
    /// voices it starts (on that channel, sounding), then cuts them. The synthesizer is left as if
    /// the note had never played, but for the blocks rendered, which its reverb and chorus do not
    /// see; once reset, it renders as a new one (``voiceProfile(channel:key:velocity:)`` says how nearly).
    private func probe<Result>(
        channel: Int, key: UInt8, velocity: UInt8, interpolation: SynthesizerSettings.Interpolation? = nil,
        _ body: ([OpaquePointer]) -> Result
    ) -> Result {
        // Effects that rendered the blocks would move their modulation on, and a reset does not
        // bring the reverb's back: held off, they stay as they were (measured: a synthesizer that
        // probed a whole song with them on renders it up to -22 dB apart from a new one).
        fluid_synth_reverb_on(synth, -1, 0)
        fluid_synth_chorus_on(synth, -1, 0)
        let changedInterpolation = interpolation.flatMap { $0 == configuration.interpolation ? nil : $0 }
        if let changedInterpolation { fluid_synth_set_interp_method(synth, -1, changedInterpolation.fluidMethod) }
        send(status: 0x90, channel: channel, data1: key, data2: velocity)
        var found = [OpaquePointer?](repeating: nil, count: 64)
        fluid_synth_get_voicelist(synth, &found, Int32(found.count), -1)
        let voices = found.compactMap { $0 }.filter { fluid_voice_get_channel($0) == Int32(channel) && fluid_voice_is_on($0) != 0 }
        let result = body(voices)
        fluid_synth_all_sounds_off(synth, -1)
        pressedKeys.releaseAll()
        discard(frames: 64)
        if changedInterpolation != nil { fluid_synth_set_interp_method(synth, -1, configuration.interpolation.fluidMethod) }
        fluid_synth_reverb_on(synth, -1, configuration.reverb == nil ? 0 : 1)
        fluid_synth_chorus_on(synth, -1, configuration.chorus == nil ? 0 : 1)
        return result
    }

    /// Voices still sounding (releasing notes included).
    public var activeVoiceCount: Int { Int(fluid_synth_get_active_voice_count(synth)) }

    /// Releases every note on every channel (they fade as their envelopes say), without cutting them.
    public func releaseAllNotes() {
        for channel in 0..<Int32(Self.channelCount) {
            fluid_synth_cc(synth, channel, 64, 0)
            fluid_synth_all_notes_off(synth, channel)
        }
        pressedKeys.releaseAll()
    }

    /// Note offs for the notes held (not those the sustain pedal holds): the song jumps back to its
    /// loop's start, past their own note offs.
    func releaseHeldNotes() {
        module.releaseHeldNotes(output: self)
    }

    /// Stops every voice at once, releases skipped (FluidSynth's all sounds off). A cut clicks
    /// unless the output has just been faded to silence, as a seek does before it.
    public func silence() {
        fluid_synth_all_sounds_off(synth, -1)
        pressedKeys.releaseAll()
        // FluidSynth cuts the voices when it next computes a block, and a reset before then
        // would turn the cut back into a release: compute that block now, into the discard buffer.
        discard(frames: 64)
    }

    /// Back to the state of a new synthesizer, for a song of `songMode` (the chosen mode, if the
    /// settings name one, wins): voices, controllers, programs, master volume, effects.
    public func reset(songMode: MIDIMode = .gm) {
        // Voices still sounding are cut first, and a block computed for the cut to take effect:
        // FluidSynth's reset asks for the same cut, yet left them in a release (measured: a flute
        // note rendered before a seek went on 20-40 ms into what followed it; SeekCutTests).
        if activeVoiceCount > 0 { silence() }
        module.start(songMode: songMode, output: self)
        // Setting the chorus and reverb again restarts their modulation from the
        // same phase, so that a song sounds the same whatever was played before it.
        if let chorus = configuration.chorus {
            fluid_synth_set_chorus_group_speed(synth, -1, chorus.speed)
        }
        if let reverb = configuration.reverb {
            fluid_synth_set_reverb_group_roomsize(synth, -1, reverb.roomSize)
        }
        // The rest of the block rendered before the reset still holds the old
        // sound: use it up, so that the next frame starts a block rendered afresh.
        let rest = (64 - framesRendered % 64) % 64
        if rest > 0 { discard(frames: rest) }
    }

    /// A controller's value on a channel (for checking what a seek restored).
    public func controller(_ number: Int, channel: Int) -> Int {
        var value: Int32 = 0
        fluid_synth_get_cc(synth, Int32(channel), Int32(number), &value)
        return Int(value)
    }

    /// The pitch bend on a channel, 0–16383.
    public func pitchBend(channel: Int) -> Int {
        var value: Int32 = 0
        fluid_synth_get_pitch_bend(synth, Int32(channel), &value)
        return Int(value)
    }

    /// The bank and program selected on a channel.
    public func program(channel: Int) -> (bank: Int, program: Int) {
        var soundFont: Int32 = 0
        var bank: Int32 = 0
        var program: Int32 = 0
        fluid_synth_get_program(synth, Int32(channel), &soundFont, &bank, &program)
        return (Int(bank), Int(program))
    }

    /// The name the SoundFont gives a preset the synthesizer selected (see ``activity``).
    public func name(of preset: ChannelActivity.Preset) -> String? {
        presetNames[Int64(preset.soundFont) << 24 | Int64(preset.bank) << 8 | Int64(preset.program)]
    }

    /// Whether FluidSynth plays drum kits on a channel.
    public func isDrumChannel(_ channel: Int) -> Bool { drumChannels[channel] }
}

extension Synthesizer: SoundModuleOutput {
    @inline(__always)
    func send(status: UInt8, part: Int, data1: UInt8, data2: UInt8) {
        let channel = Int32(part)
        let data1 = Int32(data1 & 0x7F)
        let data2 = Int32(data2 & 0x7F)
        switch status & 0xF0 {
        case 0x80:
            fluid_synth_noteoff(synth, channel, data1)
            pressedKeys.release(Int(data1), channel: part)
        case 0x90:
            fluid_synth_noteon(synth, channel, data1, data2)
            if data2 > 0 {
                if let substitution = unheardSubstitutions[part] {
                    substitutionLog.record(substitution)
                    unheardSubstitutions[part] = nil
                }
                pressedKeys.press(Int(data1), channel: part)
                activity.strike(part: part, velocity: UInt8(data2))
            } else {
                pressedKeys.release(Int(data1), channel: part)
            }
        case 0xA0: fluid_synth_key_pressure(synth, channel, data1, data2)
        case 0xB0:
            fluid_synth_cc(synth, channel, data1, data2)
            switch data1 {
            case 64: pressedKeys.setPedal(isDown: data2 >= 64, channel: part)
            // Reset all controllers lifts the pedal.
            case 121: pressedKeys.setPedal(isDown: false, channel: part)
            case 120: pressedKeys.releaseChannel(part, cutsSustain: true)
            case 123: pressedKeys.releaseChannel(part, cutsSustain: false)
            default: break
            }
        case 0xD0: fluid_synth_channel_pressure(synth, channel, data1)
        case 0xE0: fluid_synth_pitch_bend(synth, channel, data2 << 7 | data1)
        default: break
        }
    }

    func select(part: Int, isDrum: Bool, bank: Int, program: Int, mode: MIDIMode) {
        guard let table = presetTableOfMode[mode].map({ presetTables[$0] }),
            let played = table.resolve(bank: bank, program: program)
        else { return }
        unheardSubstitutions[part] =
            played.bank != bank || played.program != program
            ? PresetSubstitution(requestedBank: bank, requestedProgram: program, playedBank: played.bank, playedProgram: played.program) : nil
        if drumChannels[part] != isDrum {
            fluid_synth_set_channel_type(synth, Int32(part), Int32(isDrum ? CHANNEL_TYPE_DRUM.rawValue : CHANNEL_TYPE_MELODIC.rawValue))
            drumChannels[part] = isDrum
        }
        fluid_synth_program_select(synth, Int32(part), played.soundFont, Int32(played.soundFontBank), Int32(played.program))
        activity.select(
            part: part, ChannelActivity.Preset(soundFont: played.soundFont, bank: played.soundFontBank, program: played.program, isDrum: isDrum))
    }

    func offset(part: Int, cents: Float, pan: Float) {
        fluid_synth_set_gen(synth, Int32(part), Int32(GEN_FINETUNE.rawValue), cents)
        // The SoundFont's pan runs from −500 (left) to 500 (right), in tenths of a percent.
        fluid_synth_set_gen(synth, Int32(part), Int32(GEN_PAN.rawValue), pan * 500)
    }

    func resetSynthesizer() {
        fluid_synth_system_reset(synth)
        // The reset gives every channel FluidSynth's default interpolation again.
        fluid_synth_set_interp_method(synth, -1, configuration.interpolation.fluidMethod)
        pressedKeys.releaseAll()
        // FluidSynth's reset makes its channel 10 (and only that one) a drum channel.
        for channel in drumChannels.indices { drumChannels[channel] = channel == 9 }
    }

    func setMasterVolume(_ volume: Float) {
        masterVolume = volume
    }

    func setReverb(macro: Int?) {
        guard let configured = configuration.reverb else { return }
        let reverb = macro.map { EffectMacro.reverb($0, configured: configured) } ?? configured
        fluid_synth_set_reverb_group_roomsize(synth, -1, reverb.roomSize)
        fluid_synth_set_reverb_group_damp(synth, -1, reverb.damping)
        fluid_synth_set_reverb_group_width(synth, -1, reverb.width)
        fluid_synth_set_reverb_group_level(synth, -1, reverb.level)
    }

    func setChorus(macro: Int?) {
        guard let configured = configuration.chorus else { return }
        let chorus = macro.map { EffectMacro.chorus($0, configured: configured) } ?? configured
        fluid_synth_set_chorus_group_nr(synth, -1, Int32(chorus.voices))
        fluid_synth_set_chorus_group_depth(synth, -1, chorus.depth)
        fluid_synth_set_chorus_group_speed(synth, -1, chorus.speed)
        fluid_synth_set_chorus_group_level(synth, -1, chorus.level)
    }
}
