import SMF

/// What a General MIDI, GM2, Roland GS or Yamaha XG sound module does with a song's messages that
/// FluidSynth 2.3 does not: it reads bank selects as the song's standard means them (XG and GM2
/// drum kits on any channel, XG and GM2 variation banks), turns parts into drum parts and back,
/// shifts keys, tunes and pans the whole module, maps parts to the channels they receive, and
/// sets the effects, as the system exclusive messages of each standard say.
///
/// The standard is the song's (``MIDIModeDetection``), or the one the user chose; a reset
/// message in the song switches to its own standard, as a module does, unless the user chose.
/// Allocates nothing after it is made: the synthesizer runs it on the audio thread.
struct SoundModule {
    static let partCount = Synthesizer.channelCount
    private static let noKey: UInt8 = 0xFF

    private(set) var mode: MIDIMode = .gm
    /// The standard the song was detected as, which a GM System Off returns to.
    private var songMode: MIDIMode = .gm
    /// The user's choice, which no message in the song changes.
    private let chosenMode: MIDIMode?
    private var parts: [PartState]
    /// The key each part's sounding notes were struck with, after the key shift: a note-off finds
    /// its note even when the shift has changed since. `soundingKeys[part * 128 + key]`.
    private var soundingKeys: [UInt8]
    private var masterKeyShift = 0
    private var masterFineTune: Float = 0
    private var masterPan: Float = 0
    /// Whether any part receives another channel than its own (the fast path delivers directly).
    private var isReceiveRemapped = false
    /// The listener's transposition (``Performance/transpose``), which no message in the song
    /// changes, and the song's own on top of it (``SynthesizerSettings/keyShift``).
    private var listenerKeyShift = 0
    private let songKeyShift: Int
    /// The parts heard (bit p for part p), from the listener's muted and soloed channels.
    private var audibleParts = UInt64.max

    init(chosenMode: MIDIMode?, keyShift: Int = 0) {
        self.chosenMode = chosenMode
        songKeyShift = keyShift
        listenerKeyShift = keyShift
        parts = (0..<Self.partCount).map(PartState.init(part:))
        soundingKeys = Array(repeating: Self.noKey, count: Self.partCount * 128)
    }

    /// Power-on state for a song of `songMode`, the synthesizer reset with it.
    mutating func start(songMode: MIDIMode, output: some SoundModuleOutput) {
        self.songMode = songMode
        reset(to: songMode, output: output)
    }

    /// A channel message on `channel` (0–63), played by every part that receives that channel.
    mutating func receive(status: UInt8, channel: Int, data1: UInt8, data2: UInt8, output: some SoundModuleOutput) {
        guard isReceiveRemapped else {
            deliver(status: status, part: channel, data1: data1, data2: data2, output: output)
            return
        }
        for part in 0..<Self.partCount where parts[part].receiveChannel == channel {
            deliver(status: status, part: part, data1: data1, data2: data2, output: output)
        }
    }

    private mutating func deliver(status: UInt8, part: Int, data1: UInt8, data2: UInt8, output: some SoundModuleOutput) {
        let key = Int(data1 & 0x7F)
        switch status & 0xF0 {
        case 0x90 where data2 & 0x7F != 0:
            guard audibleParts & 1 << UInt64(part) != 0, let shifted = shiftedKey(key, part: part) else { return }
            soundingKeys[part * 128 + key] = shifted
            output.send(status: status, part: part, data1: shifted, data2: data2)
        case 0x80, 0x90:
            let index = part * 128 + key
            let struck = soundingKeys[index]
            soundingKeys[index] = Self.noKey
            guard let shifted = struck != Self.noKey ? struck : shiftedKey(key, part: part) else { return }
            output.send(status: status, part: part, data1: shifted, data2: data2)
        case 0xA0:
            let struck = soundingKeys[part * 128 + key]
            guard let shifted = struck != Self.noKey ? struck : shiftedKey(key, part: part) else { return }
            output.send(status: status, part: part, data1: shifted, data2: data2)
        case 0xB0:
            output.send(status: status, part: part, data1: data1, data2: data2)
            switch data1 & 0x7F {
            case 0: parts[part].bankMSB = data2 & 0x7F
            case 32: parts[part].bankLSB = data2 & 0x7F
            // Reset all controllers clears FluidSynth's offsets with the rest.
            case 121: output.offset(part: part, cents: masterFineTune, pan: masterPan)
            default: break
            }
        case 0xC0:
            parts[part].program = data1 & 0x7F
            selectProgram(part: part, output: output)
        default:
            output.send(status: status, part: part, data1: data1, data2: data2)
        }
    }

    /// A key moved by the master and part key shifts; drum parts never move (a shifted key would
    /// be another drum). Nil when it falls off the keyboard.
    private func shiftedKey(_ key: Int, part: Int) -> UInt8? {
        guard !parts[part].isDrum else { return UInt8(key) }
        let shifted = key + masterKeyShift + parts[part].keyShift + listenerKeyShift
        return (0...127).contains(shifted) ? UInt8(shifted) : nil
    }

    /// Plays on as the listener now wants: keys struck from now on are moved by `transpose`, and
    /// the notes of a part just muted are released (its sustain pedal lifted), so that it falls
    /// silent as its instruments' releases say, without a click.
    mutating func play(_ performance: Performance, output: some SoundModuleOutput) {
        listenerKeyShift = performance.transpose + songKeyShift
        let audible = performance.audible
        var heard: UInt64 = 0
        for part in 0..<Self.partCount where audible.contains(part % 16) { heard |= 1 << UInt64(part) }
        let silenced = audibleParts & ~heard
        audibleParts = heard
        for part in 0..<Self.partCount where silenced & 1 << UInt64(part) != 0 {
            for key in 0..<128 where soundingKeys[part * 128 + key] != Self.noKey {
                output.send(status: 0x80, part: part, data1: soundingKeys[part * 128 + key], data2: 0)
                soundingKeys[part * 128 + key] = Self.noKey
            }
            output.send(status: 0xB0, part: part, data1: 64, data2: 0)
        }
    }

    /// Note offs for every note held, on every part: the song jumps elsewhere (a loop's start),
    /// and their own note offs will not come.
    mutating func releaseHeldNotes(output: some SoundModuleOutput) {
        for index in soundingKeys.indices where soundingKeys[index] != Self.noKey {
            output.send(status: 0x80, part: index / 128, data1: soundingKeys[index], data2: 0)
            soundingKeys[index] = Self.noKey
        }
    }

    /// Selects the part's program as the standard reads its bank select.
    private mutating func selectProgram(part index: Int, output: some SoundModuleOutput) {
        var part = parts[index]
        var bank = Int(part.bankMSB)
        var program = Int(part.program)
        part.isDrum = part.isDrumPart
        switch mode {
        case .gm, .gs:
            break
        case .xg:
            switch part.bankMSB {
            case 127: part.isDrum = true
            // The SFX kits: the GS SFX kit (drum program 57) is the one SoundFonts have.
            case 126:
                part.isDrum = true
                program = Self.soundEffectsKit
            // MSB 0 is the normal voices, whose variations LSB selects; 64 the SFX voices.
            case 0: bank = Int(part.bankLSB)
            default: break
            }
        case .gm2:
            switch part.bankMSB {
            case 120: part.isDrum = true
            case 121:
                part.isDrum = false
                bank = Int(part.bankLSB)
            default: bank = 0
            }
        }
        parts[index] = part
        output.select(part: index, isDrum: part.isDrum, bank: part.isDrum ? PresetTable.drumBank : bank, program: program, mode: mode)
    }

    /// The GS SFX kit's program in the drum bank.
    static let soundEffectsKit = 56

    /// Acts on a command of a system exclusive message.
    mutating func perform(_ command: SoundModuleCommand, output: some SoundModuleOutput) {
        switch command {
        case .reset(let standard):
            reset(to: standard, output: output)
        case .generalMIDIOff:
            // Back to the module's own standard: XG for an XG song, else GS (as a Sound Canvas does).
            reset(to: songMode == .xg ? .xg : .gs, output: output)
        case .masterVolume(let volume):
            output.setMasterVolume(volume)
        case .masterPan(let pan):
            masterPan = pan
            for part in 0..<Self.partCount { output.offset(part: part, cents: masterFineTune, pan: masterPan) }
        case .masterFineTune(let cents):
            masterFineTune = cents
            for part in 0..<Self.partCount { output.offset(part: part, cents: masterFineTune, pan: masterPan) }
        case .masterKeyShift(let semitones):
            masterKeyShift = semitones
        case .partDrumMode(let part, let isDrum):
            parts[part].isDrumPart = isDrum
            // The kit or instrument of the part's current program, at once (a program change may follow).
            selectProgram(part: part, output: output)
        case .partKeyShift(let part, let semitones):
            parts[part].keyShift = semitones
        case .partController(let part, let controller, let value):
            deliver(status: 0xB0, part: part, data1: controller, data2: value, output: output)
        case .partReceiveChannel(let part, let channel):
            parts[part].receiveChannel = channel ?? -1
            isReceiveRemapped = parts.indices.contains { parts[$0].receiveChannel != $0 }
        case .reverbMacro(let macro):
            output.setReverb(macro: macro)
        case .chorusMacro(let macro):
            output.setChorus(macro: macro)
        case .badChecksum:
            break
        }
    }

    private mutating func reset(to standard: MIDIMode, output: some SoundModuleOutput) {
        mode = chosenMode ?? standard
        masterKeyShift = 0
        masterFineTune = 0
        masterPan = 0
        isReceiveRemapped = false
        for part in parts.indices { parts[part] = PartState(part: part) }
        for index in soundingKeys.indices { soundingKeys[index] = Self.noKey }
        output.resetSynthesizer()
        output.setMasterVolume(1)
        output.setReverb(macro: nil)
        output.setChorus(macro: nil)
        for part in parts.indices { selectProgram(part: part, output: output) }
    }
}
