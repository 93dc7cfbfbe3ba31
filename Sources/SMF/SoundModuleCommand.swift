/// What a system exclusive message tells a General MIDI, GM2, Roland GS or Yamaha XG sound module
/// to do, in terms independent of the maker.
///
/// Parts are numbered as the synthesizer's channels, 0–63 (port × 16 + channel): the GS part order
/// (part 10 first) and the Sound Canvas's second port (address 50 xx xx) are already mapped.
public enum SoundModuleCommand: Equatable, Sendable {
    /// Every part back to the power-on state of `mode` (GM System On, GM2 System On, GS reset, the
    /// SC-88's mode set, XG System On, XG all-parameter reset; "exit GS mode" is a GM reset).
    case reset(MIDIMode)
    /// GM System Off: the module leaves General MIDI for its own mode.
    case generalMIDIOff
    /// The volume of everything, 0–1.
    case masterVolume(Float)
    /// GS master pan or GM2 master balance, −1 (left) to 1 (right).
    case masterPan(Float)
    /// GS and XG master tune, GM2 master fine tuning.
    case masterFineTune(cents: Float)
    /// GS master key shift, XG transpose, GM2 master coarse tuning.
    case masterKeyShift(semitones: Int)
    /// GS "use for rhythm part", XG part mode: the part plays drum kits, or instruments.
    case partDrumMode(part: Int, isDrum: Bool)
    /// GS part key shift, XG part note shift.
    case partKeyShift(part: Int, semitones: Int)
    /// GS and XG part level, pan, reverb and chorus send: the controller that does the same (7, 10, 91, 93).
    case partController(part: Int, controller: UInt8, value: UInt8)
    /// GS and XG receive channel: the channel (0–63) whose messages the part plays, or nil for none.
    case partReceiveChannel(part: Int, channel: Int?)
    /// GS reverb macro 0–7: Room 1–3, Hall 1–2, Plate, Delay, Panning Delay.
    case reverbMacro(Int)
    /// GS chorus macro 0–7: Chorus 1–4, Feedback Chorus, Flanger, Short Delay, Short Delay (FB).
    case chorusMacro(Int)
    /// A Roland message whose checksum is wrong: a module ignores it, and so does smfplay.
    case badChecksum

    /// Calls `visit` with each command in `message` (a whole system exclusive message without its
    /// `F0` and `F7`), in order; a message may carry several (a GS data set writing consecutive
    /// addresses). Messages of no interest to a sound module visit nothing. Reads the bytes in
    /// place and allocates nothing: the synthesizer does this on the audio thread.
    public static func decode<Bytes: RandomAccessCollection>(_ message: Bytes, _ visit: (SoundModuleCommand) -> Void)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let bytes = SystemExclusiveBytes(message)
        switch bytes[0] {
        case 0x7E, 0x7F: UniversalSystemExclusive.decode(bytes, visit)
        case 0x41: RolandDataSet.decode(bytes, visit)
        case 0x43: YamahaParameterChange.decode(bytes, visit)
        default: break
        }
    }

    /// The commands in a message, for code off the audio thread.
    public static func commands<Bytes: RandomAccessCollection>(in message: Bytes) -> [SoundModuleCommand]
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var commands: [SoundModuleCommand] = []
        decode(message) { commands.append($0) }
        return commands
    }
}

/// A message's bytes by offset from its start, 0 past its end: checks of a byte never trap.
struct SystemExclusiveBytes<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes

    init(_ bytes: Bytes) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    subscript(offset: Int) -> UInt8 {
        offset >= 0 && offset < bytes.count ? bytes[bytes.startIndex + offset] : 0
    }
}
