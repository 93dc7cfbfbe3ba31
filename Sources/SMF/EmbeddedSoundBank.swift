/// The sound bank an RMID file carries after its song (the SF2-RMIDI convention, or the original
/// RMID with DLS): where it lies in the file, and the bank offset its presets are heard at.
///
/// Only its place is kept: the bank's bytes stay in the file, for the synthesizer to load.
public struct EmbeddedSoundBank: Hashable, Sendable {
    public enum Format: Hashable, Sendable {
        /// `RIFF sfbk`: a SoundFont 2, or 3 with compressed samples.
        case soundFont
        /// `RIFF DLS `: Downloadable Sounds.
        case downloadableSounds
    }

    /// The spec's offset when the file names none (`DBNK` absent).
    public static let defaultBankOffset = 1

    public var format: Format
    /// The bank's whole RIFF chunk in the file, from its `RIFF` on, cut at the file's end.
    public var bytes: Range<Int>
    /// Added to every bank of the embedded bank but the drum kits' (128): 0–127.
    public var bankOffset: Int

    public init(format: Format, bytes: Range<Int>, bankOffset: Int = Self.defaultBankOffset) {
        self.format = format
        self.bytes = bytes
        self.bankOffset = bankOffset
    }
}
