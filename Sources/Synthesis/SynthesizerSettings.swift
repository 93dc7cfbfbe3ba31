import CFluidSynth
import SMF

/// How a synthesizer sounds: everything FluidSynth is told when it is created.
public struct SynthesizerSettings: Hashable, Sendable {
    /// FluidSynth's reverb, with the defaults of FluidSynth 2.3 (`synth.reverb.*`, the version
    /// Debian 12 ships), written out so that another version cannot change a render. The ranges
    /// are FluidSynth's, which the configuration file is held to.
    public struct Reverb: Hashable, Sendable {
        public var roomSize: Double
        public var damping: Double
        public var width: Double
        public var level: Double

        public static let roomSizeRange = 0.0...1.0
        public static let dampingRange = 0.0...1.0
        public static let widthRange = 0.0...100.0
        public static let levelRange = 0.0...1.0

        public init(roomSize: Double = 0.2, damping: Double = 0.0, width: Double = 0.5, level: Double = 0.9) {
            self.roomSize = roomSize
            self.damping = damping
            self.width = width
            self.level = level
        }
    }

    /// FluidSynth's chorus, with FluidSynth 2.3's defaults (`synth.chorus.*`). FluidSynth 2.4
    /// lowered them (level 0.6, speed 0.2, depth 4.25); these keep renders the same whichever
    /// version is installed.
    public struct Chorus: Hashable, Sendable {
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

        public init(voices: Int = 3, level: Double = 2.0, speed: Double = 0.3, depth: Double = 8.0) {
            self.voices = voices
            self.level = level
            self.speed = speed
            self.depth = depth
        }
    }

    /// How FluidSynth computes samples between a SoundFont's stored ones, by the names the
    /// configuration file gives them.
    public enum Interpolation: String, Hashable, Sendable, CaseIterable {
        /// The nearest sample. Not spelled `none`, so that it never reads as `Optional.none`.
        case nearest = "none"
        case linear
        /// Fourth order: FluidSynth's default, good quality.
        case cubic
        /// Seventh order: the best FluidSynth has, and the slowest.
        case sinc

        /// FluidSynth's `fluid_interp` value (`fluid_synth_set_interp_method`).
        var fluidMethod: Int32 {
            switch self {
            case .nearest: Int32(FLUID_INTERP_NONE.rawValue)
            case .linear: Int32(FLUID_INTERP_LINEAR.rawValue)
            case .cubic: Int32(FLUID_INTERP_4THORDER.rawValue)
            case .sinc: Int32(FLUID_INTERP_7THORDER.rawValue)
            }
        }
    }

    public var sampleRate: Double
    /// Output gain (FluidSynth's `synth.gain`, 0–10).
    public var gain: Double
    public var polyphony: Int
    public var interpolation: Interpolation
    /// `nil` turns the reverb off.
    public var reverb: Reverb?
    /// `nil` turns the chorus off.
    public var chorus: Chorus?
    /// The standard every song is read as, whatever it says; `nil` reads each song as the
    /// standard it was written for (``MIDIModeDetection``), switching when a reset message says so.
    public var midiMode: MIDIMode?
    /// Semitones added to every key beyond the listener's transposition: a song's own (its
    /// folder's `transpose`) where the listener's is one for the whole queue (`play`).
    public var keyShift = 0

    /// The defaults, here once: the configuration's come from these.
    public static let defaultSampleRate = 44_100.0
    public static let defaultPolyphony = 256
    public static let defaultInterpolation = Interpolation.cubic

    public init(
        sampleRate: Double = defaultSampleRate, gain: Double, polyphony: Int = defaultPolyphony,
        interpolation: Interpolation = defaultInterpolation,
        reverb: Reverb? = Reverb(), chorus: Chorus? = Chorus(), midiMode: MIDIMode? = nil
    ) {
        self.sampleRate = sampleRate
        self.gain = gain
        self.polyphony = polyphony
        self.interpolation = interpolation
        self.reverb = reverb
        self.chorus = chorus
        self.midiMode = midiMode
    }
}
