import Files
import SMF
import SystemPackage

/// A sound bank one song brings with it, heard for that song alone on top of the configured
/// SoundFonts: its presets win where they have the bank and program the song selects, and the
/// configured ones play the rest.
public struct SongSoundBank: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        /// A bank file of its own (.sf2, .sf3 or .dls), found beside the song.
        case file(FilePath)
        /// The bank inside the song's own file: an RMID file's embedded bank.
        case embedded(EmbeddedSoundBank, in: FilePath)
    }

    public var source: Source
    /// Added to the bank number of each of the bank's presets but the drum kits' (128): the bank
    /// a song selects to hear the bank's own bank 0 (an RMID file's `DBNK`, 1 when it names none).
    public var bankOffset: Int

    /// An RMID file's own bank, at the offset the file gives.
    public init(embedded bank: EmbeddedSoundBank, in file: FilePath) {
        source = .embedded(bank, in: file)
        bankOffset = bank.bankOffset
    }

    /// A bank file heard at its own bank numbers.
    public init(file: FilePath) {
        source = .file(file)
        bankOffset = 0
    }

    /// The bank a preset of this one at `bank` answers to: drum kits stay at 128; a bank pushed
    /// past 127 by the offset becomes 0, as the SF2-RMIDI specification says.
    func selectedBank(ofPresetAt bank: Int) -> Int {
        guard bank != PresetTable.drumBank else { return bank }
        let shifted = bank + bankOffset
        return (0...127).contains(shifted) ? shifted : 0
    }
}

extension SongSoundBank: CustomStringConvertible {
    /// Which bank, for messages: "song.rmi's embedded SoundFont", "song.sf2".
    public var description: String {
        switch source {
        case .file(let path):
            path.text
        case .embedded(let bank, let file):
            "\(file.text)'s embedded \(bank.format == .soundFont ? "SoundFont" : "DLS bank")"
        }
    }
}
