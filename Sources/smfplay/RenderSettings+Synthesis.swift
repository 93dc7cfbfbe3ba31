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
            interpolation: interpolation.synthesizerInterpolation,
            reverb: reverb.isEnabled ? .init(roomSize: reverb.roomSize, damping: reverb.damping, width: reverb.width, level: reverb.level) : nil,
            chorus: chorus.isEnabled ? .init(voices: chorus.voices, level: chorus.level, speed: chorus.speed, depth: chorus.depth) : nil,
            midiMode: midiMode?.midiMode
        )
    }

    func renderOptions(normalize: Bool) -> RenderOptions {
        RenderOptions(format: format.audioFileFormat, encoding: bits.sampleEncoding, tailLimit: tail, normalize: normalize, limitsPeaks: limiter)
    }
}

extension RenderSettings.Interpolation {
    var synthesizerInterpolation: SynthesizerSettings.Interpolation {
        switch self {
        case .nearest: .none
        case .linear: .linear
        case .cubic: .cubic
        case .sinc: .sinc
        }
    }
}

extension RenderSettings.FileFormat {
    var audioFileFormat: AudioFileFormat {
        switch self {
        case .wav: .wav
        case .flac: .flac
        case .ogg: .ogg
        case .aiff: .aiff
        }
    }
}

extension RenderSettings.SampleFormat {
    var sampleEncoding: SampleEncoding {
        switch self {
        case .int16: .pcm16
        case .int24: .pcm24
        case .float32: .float32
        }
    }
}
