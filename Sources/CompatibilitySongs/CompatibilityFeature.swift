import SMF

/// A GS, XG or GM2 feature as a song uses it, with the same music written in plain GM (what the
/// feature should sound like) and as a player that ignores the feature plays it (what it must not
/// sound like). A player has the feature when its rendering of `feature` sounds like its rendering
/// of `reference` and unlike its rendering of `wrong`.
public struct CompatibilityFeature: Sendable {
    /// The SoundFonts a feature needs.
    public enum SoundFonts: String, Sendable {
        /// Any General MIDI SoundFont: TimGM6mb renders quickest.
        case generalMIDI
        /// FluidR3_GS stacked over FluidR3_GM: the Sound Canvas's SFX kit and sound effects.
        case rolandStack
    }

    public let name: String
    public let summary: String
    public let feature: MIDIFile
    public let reference: MIDIFile
    public let wrong: MIDIFile
    public let soundFonts: SoundFonts

    init(
        _ name: String, _ summary: String, feature: Arrangement, reference: Arrangement, wrong: Arrangement,
        soundFonts: SoundFonts = .generalMIDI
    ) {
        self.name = name
        self.summary = summary
        self.feature = feature.file
        self.reference = reference.file
        self.wrong = wrong.file
        self.soundFonts = soundFonts
    }
}
