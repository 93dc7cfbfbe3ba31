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

    /// The configuration's loops: `loops` passes beyond the first (nil for `"inf"`) and its fade.
    var configuredLoops: LoopSettings {
        LoopSettings(passes: loops.map { $0 + 1 }, fadeSeconds: fade)
    }

    /// The options of a render with these settings: the configuration's loops (nil passes for
    /// `loops = "inf"`, which a render refuses) and encoder quality.
    func renderOptions() -> RenderOptions {
        var options = RenderOptions(
            format: format, encoding: bits, tailLimit: tail, limitsPeaks: limiter,
            loops: configuredLoops,
            songBanks: makeSongBankLookup())
        options.quality = quality
        return options
    }
}
