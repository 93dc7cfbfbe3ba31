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

    func renderOptions(normalize: Bool) -> RenderOptions {
        RenderOptions(format: format, encoding: bits, tailLimit: tail, normalize: normalize, limitsPeaks: limiter)
    }
}
