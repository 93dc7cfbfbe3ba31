import AudioOutput
import Loudness
import SMF
import Synthesis

/// Everything that shapes how a song is rendered to an audio file, with the defaults
/// that `Config/smfplay.toml` documents (the reverb's and the chorus's are
/// `SynthesizerSettings`'). The configuration file sets these first; command-line options
/// then overwrite single properties.
///
/// The ranges are public so that the command line checks its options against the
/// same limits the file is held to.
public struct RenderSettings: Sendable, Equatable {
    /// The SoundFonts to use, first wins, as written in the configuration (paths, or names of
    /// files in a SoundFont folder); empty lets `SoundFontLocator` look in the usual places.
    /// A relative path with a folder in it has already been made relative to the
    /// configuration file's folder.
    public var soundFonts: [String]
    /// SoundFont stacks for songs of one standard, in place of `soundFonts` (written as above).
    public var soundFontsByStandard: [MIDIMode: [String]]
    /// Whether a song is heard with a sound bank beside it (`SONG.sf2`, `Folder/Folder.sf2`, the
    /// folder's only bank) on top of these SoundFonts (``SongBankLookup``).
    public var sidecarSoundFonts: Bool
    /// The standard every song is read as; nil reads each as the standard it was written for.
    public var midiMode: MIDIMode?
    /// Keep every peak of the output at or below −1 dBFS with a look-ahead limiter.
    public var limiter: Bool
    /// The loudness `--normalize` and playback bring songs to, in LUFS (``LoudnessTarget``).
    public var loudnessTarget = LoudnessTarget.defaultLUFS
    /// Whether play, browse and resume bring each song to `loudnessTarget`.
    public var loudnessMode = LoudnessMode.track

    /// Samples per second of the output.
    public var sampleRate: Int
    public static let defaultSampleRate = Int(SynthesizerSettings.defaultSampleRate)
    /// FluidSynth's own limits for `synth.sample-rate`.
    public static let sampleRateRange = 8000...96000

    /// FluidSynth's master gain (`synth.gain`): a linear factor on every voice.
    public var gain: Double
    /// The loudest gain that leaves every song of the openttd-openmsx corpus at or
    /// below −1 dBFS with FluidR3_GM, reverb and chorus on (the loudest song peaks at
    /// 5.58 at gain 1; TimGM6mb is quieter, 2.96). FluidSynth's own 0.2 clips that song.
    /// `--normalize` brings renders to a loudness, which this gain meets exactly (others trim it).
    public static let defaultGain = 0.16
    public static let gainRange = 0.0...10.0

    /// How many voices may sound at once before FluidSynth steals the oldest.
    public var polyphony: Int
    public static let defaultPolyphony = SynthesizerSettings.defaultPolyphony
    public static let polyphonyRange = 1...65535

    public var interpolation: SynthesizerSettings.Interpolation

    public var isReverbEnabled: Bool
    public var reverb: SynthesizerSettings.Reverb
    public var isChorusEnabled: Bool
    public var chorus: SynthesizerSettings.Chorus

    /// Seconds rendered after the last event, so that releases and reverb die away
    /// instead of being cut off.
    public var tail: Double
    public static let defaultTail = 10.0
    public static let tailRange = 0.0...60.0

    /// How many more times a song's loop (game music) plays; `.forever` in `play` only.
    public var loops = LoopCount.extra(0)
    /// After the last loop, the seconds of a fade; 0 for none.
    public var fade = 0.0
    public static let fadeRange = 0.0...60.0

    /// How many songs are rendered at once; `nil` means one per processor core.
    public var jobs: Int?
    /// The lower limit; there is no upper one, since a job only costs memory.
    public static let minimumJobs = 1

    /// One of `AudioFileFormat.fileFormats`.
    public var format: AudioFileFormat
    public var bits: SampleEncoding
    /// The encoder's quality (FLAC, Ogg Vorbis, MP3, Opus); nil: each format's default
    /// (`AudioFileFormat.defaultQuality`).
    public var quality: EncodingQuality?

    public init(
        soundFonts: [String] = [],
        soundFontsByStandard: [MIDIMode: [String]] = [:],
        sidecarSoundFonts: Bool = true,
        midiMode: MIDIMode? = nil,
        limiter: Bool = true,
        sampleRate: Int = RenderSettings.defaultSampleRate,
        gain: Double = RenderSettings.defaultGain,
        polyphony: Int = RenderSettings.defaultPolyphony,
        interpolation: SynthesizerSettings.Interpolation = SynthesizerSettings.defaultInterpolation,
        isReverbEnabled: Bool = true,
        reverb: SynthesizerSettings.Reverb = .init(),
        isChorusEnabled: Bool = true,
        chorus: SynthesizerSettings.Chorus = .init(),
        tail: Double = RenderSettings.defaultTail,
        jobs: Int? = nil,
        format: AudioFileFormat = .wav,
        bits: SampleEncoding = .pcm16,
        quality: EncodingQuality? = nil
    ) {
        self.soundFonts = soundFonts
        self.soundFontsByStandard = soundFontsByStandard
        self.sidecarSoundFonts = sidecarSoundFonts
        self.midiMode = midiMode
        self.limiter = limiter
        self.sampleRate = sampleRate
        self.gain = gain
        self.polyphony = polyphony
        self.interpolation = interpolation
        self.isReverbEnabled = isReverbEnabled
        self.reverb = reverb
        self.isChorusEnabled = isChorusEnabled
        self.chorus = chorus
        self.tail = tail
        self.jobs = jobs
        self.format = format
        self.bits = bits
        self.quality = quality
    }

    /// The number of songs to render at once on a machine with `processorCount` cores.
    public func jobCount(processorCount: Int) -> Int {
        jobs ?? max(Self.minimumJobs, processorCount)
    }
}
