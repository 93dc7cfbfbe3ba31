import AudioOutput
import Configuration
import Playback
import Synthesis

/// Translations from the configuration's vocabulary to the layers that act on it.
extension RenderSettings {
    var synthesizerSettings: SynthesizerSettings {
        SynthesizerSettings(
            sampleRate: Double(sampleRate),
            gain: gain,
            polyphony: polyphony,
            interpolation: interpolation,
            reverb: isReverbEnabled ? reverb : nil,
            chorus: isChorusEnabled ? chorus : nil,
            midiMode: midiMode
        )
    }

    /// Where songs' own banks are looked for (``SongBankLookup``). Made once per command run, after
    /// the command line has been applied (``SoundOptions/apply(to:)``), and passed down: its
    /// copies share the folders it has listed.
    func makeSongBankLookup() -> SongBankLookup {
        SongBankLookup(sidecars: sidecarSoundFonts)
    }

    /// The configuration's loops and fade; with `mustEnd` (a render, a measurement) a loop marked
    /// to repeat for ever plays once more.
    func configuredLoops(mustEnd: Bool) -> LoopSettings {
        var configured = LoopSettings(passes: 1, fadeSeconds: fade, passesForMarkedForever: mustEnd ? 2 : nil)
        configured.count(loops)
        return configured
    }

    /// The options of a render with these settings: the configuration's loops (nil passes for
    /// `loops = "inf"`, which a render refuses) and encoder quality.
    func renderOptions() -> RenderOptions {
        var options = RenderOptions(
            format: format, encoding: bits, tailLimit: tail, limitsPeaks: limiter,
            loops: configuredLoops(mustEnd: true),
            songBanks: makeSongBankLookup())
        options.quality = quality
        return options
    }
}
