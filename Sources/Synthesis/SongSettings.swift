import SMF

/// What plays one song, of what may differ from song to song: the command's settings (the
/// configuration's, with the command line's over them), and a song's own once its folder
/// settings are applied (``FolderSettings/applied(to:commandLine:)``). Everything else (the sample
/// rate, polyphony, the output) is the command's alone.
public struct SongSettings: Sendable, Equatable {
    /// The stack the song plays from; a song's own sound bank goes on top of it as ever
    /// (`with(songBank:)`).
    public var soundFonts: SoundFontStack
    /// Its gain, standard (`midiMode`), reverb and chorus among the rest.
    public var synthesizer: SynthesizerSettings
    /// Its transposition among the rest (tempo and channels are the command line's alone).
    public var performance: Performance
    public var loops: LoopSettings
    /// How the song's texts are read; nil decides from its text.
    public var textEncoding: TextDecoding.Encoding?

    public init(
        soundFonts: SoundFontStack, synthesizer: SynthesizerSettings, performance: Performance = Performance(),
        loops: LoopSettings = .asWritten, textEncoding: TextDecoding.Encoding? = nil
    ) {
        self.soundFonts = soundFonts
        self.synthesizer = synthesizer
        self.performance = performance
        self.loops = loops
        self.textEncoding = textEncoding
    }

    /// Whether a song with these settings needs a synthesizer other than one made with `other`'s:
    /// another stack, or other synthesizer settings.
    public func needsOwnSynthesizer(comparedTo other: SongSettings) -> Bool {
        soundFonts != other.soundFonts || synthesizer != other.synthesizer
    }
}
