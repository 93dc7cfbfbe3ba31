/// Everything that shapes how a song is rendered to an audio file, with the defaults
/// that `Config/smfplay.toml` documents. The configuration file sets these first;
/// command-line options then overwrite single properties.
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
    public var soundFontsByStandard: [SongStandard: [String]]
    /// The standard every song is read as; nil reads each as the standard it was written for.
    public var midiMode: SongStandard?
    /// Keep every peak of the output at or below −1 dBFS with a look-ahead limiter.
    public var limiter: Bool

    /// Samples per second of the output.
    public var sampleRate: Int
    public static let defaultSampleRate = 44100
    /// FluidSynth's own limits for `synth.sample-rate`.
    public static let sampleRateRange = 8000...96000

    /// FluidSynth's master gain (`synth.gain`): a linear factor on every voice.
    public var gain: Double
    /// The loudest gain that leaves every song of the openttd-openmsx corpus at or
    /// below −1 dBFS with FluidR3_GM, reverb and chorus on (the loudest song peaks at
    /// 5.58 at gain 1; TimGM6mb is quieter, 2.96). FluidSynth's own 0.2 clips that song.
    /// `--normalize` makes offline renders as loud as they can be.
    public static let defaultGain = 0.16
    public static let gainRange = 0.0...10.0

    /// How many voices may sound at once before FluidSynth steals the oldest.
    public var polyphony: Int
    public static let defaultPolyphony = 256
    public static let polyphonyRange = 1...65535

    public var interpolation: Interpolation

    public var reverb: Reverb
    public var chorus: Chorus

    /// Seconds rendered after the last event, so that releases and reverb die away
    /// instead of being cut off.
    public var tail: Double
    public static let defaultTail = 10.0
    public static let tailRange = 0.0...60.0

    /// How many more times a song's loop (game music) plays; `nil` for ever (play only). 0: as written.
    public var loops: Int? = 0
    public static let loopsRange = 0...1000
    /// After the last loop, the seconds of a fade; 0 for none.
    public var fade = 0.0
    public static let fadeRange = 0.0...60.0

    /// How many songs are rendered at once; `nil` means one per processor core.
    public var jobs: Int?
    /// The lower limit; there is no upper one, since a job only costs memory.
    public static let minimumJobs = 1

    public var format: FileFormat
    public var bits: SampleFormat

    public init(
        soundFonts: [String] = [],
        soundFontsByStandard: [SongStandard: [String]] = [:],
        midiMode: SongStandard? = nil,
        limiter: Bool = true,
        sampleRate: Int = RenderSettings.defaultSampleRate,
        gain: Double = RenderSettings.defaultGain,
        polyphony: Int = RenderSettings.defaultPolyphony,
        interpolation: Interpolation = .cubic,
        reverb: Reverb = Reverb(),
        chorus: Chorus = Chorus(),
        tail: Double = RenderSettings.defaultTail,
        jobs: Int? = nil,
        format: FileFormat = .wav,
        bits: SampleFormat = .int16
    ) {
        self.soundFonts = soundFonts
        self.soundFontsByStandard = soundFontsByStandard
        self.midiMode = midiMode
        self.limiter = limiter
        self.sampleRate = sampleRate
        self.gain = gain
        self.polyphony = polyphony
        self.interpolation = interpolation
        self.reverb = reverb
        self.chorus = chorus
        self.tail = tail
        self.jobs = jobs
        self.format = format
        self.bits = bits
    }

    /// The number of songs to render at once on a machine with `processorCount` cores.
    public func jobCount(processorCount: Int) -> Int {
        jobs ?? max(Self.minimumJobs, processorCount)
    }
}

extension RenderSettings {
    /// How FluidSynth computes samples between a SoundFont's stored ones
    /// (`fluid_synth_set_interp_method`).
    public enum Interpolation: String, CaseIterable, Sendable {
        /// FLUID_INTERP_NONE: the nearest sample. Not spelled `none`, so that it never
        /// reads as `Optional.none`.
        case nearest = "none"
        /// FLUID_INTERP_LINEAR.
        case linear
        /// FLUID_INTERP_4THORDER, FluidSynth's default.
        case cubic
        /// FLUID_INTERP_7THORDER: the best and the slowest.
        case sinc
    }

    /// The audio file container written by `smfplay render`.
    public enum FileFormat: String, CaseIterable, Sendable {
        case wav, flac, ogg, aiff

        /// The extension given to rendered files.
        public var fileExtension: String { rawValue }

        /// FLAC stores integers only; Ogg Vorbis is lossy and ignores the sample format.
        public func supports(_ bits: SampleFormat) -> Bool {
            self != .flac || bits != .float32
        }
    }

    /// How each sample is stored in the file.
    public enum SampleFormat: String, CaseIterable, Sendable {
        case int16 = "16"
        case int24 = "24"
        case float32 = "32f"
    }

    /// FluidSynth's reverb. The defaults are FluidSynth 2.3's (`synth.reverb.*`, the
    /// version Debian 12 ships), written out so that another version cannot change a render.
    public struct Reverb: Sendable, Equatable {
        public var isEnabled: Bool
        public var roomSize: Double
        public var damping: Double
        public var width: Double
        public var level: Double

        public static let roomSizeRange = 0.0...1.0
        public static let dampingRange = 0.0...1.0
        public static let widthRange = 0.0...100.0
        public static let levelRange = 0.0...1.0

        public init(isEnabled: Bool = true, roomSize: Double = 0.2, damping: Double = 0.0, width: Double = 0.5, level: Double = 0.9) {
            self.isEnabled = isEnabled
            self.roomSize = roomSize
            self.damping = damping
            self.width = width
            self.level = level
        }
    }

    /// FluidSynth's chorus, with FluidSynth 2.3's defaults (`synth.chorus.*`). FluidSynth
    /// 2.4 lowered them (level 0.6, speed 0.2, depth 4.25); these keep renders the same
    /// whichever version is installed.
    public struct Chorus: Sendable, Equatable {
        public var isEnabled: Bool
        public var voices: Int
        public var level: Double
        /// Modulation speed in Hz.
        public var speed: Double
        /// Modulation depth in milliseconds.
        public var depth: Double

        public static let voicesRange = 0...99
        public static let levelRange = 0.0...10.0
        public static let speedRange = 0.1...5.0
        public static let depthRange = 0.0...256.0

        public init(isEnabled: Bool = true, voices: Int = 3, level: Double = 2.0, speed: Double = 0.3, depth: Double = 8.0) {
            self.isEnabled = isEnabled
            self.voices = voices
            self.level = level
            self.speed = speed
            self.depth = depth
        }
    }
}
