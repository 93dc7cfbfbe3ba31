import SMF

/// How a synthesizer sounds: everything FluidSynth is told when it is created.
public struct SynthesizerSettings: Hashable, Sendable {
    /// The reverb's parameters, as FluidSynth names them.
    public struct Reverb: Hashable, Sendable {
        public var roomSize: Double
        public var damping: Double
        public var width: Double
        public var level: Double

        public init(roomSize: Double = 0.2, damping: Double = 0.0, width: Double = 0.5, level: Double = 0.9) {
            self.roomSize = roomSize
            self.damping = damping
            self.width = width
            self.level = level
        }
    }

    /// The chorus's parameters, as FluidSynth names them.
    public struct Chorus: Hashable, Sendable {
        public var voices: Int
        public var level: Double
        public var speed: Double
        public var depth: Double

        public init(voices: Int = 3, level: Double = 2.0, speed: Double = 0.3, depth: Double = 8.0) {
            self.voices = voices
            self.level = level
            self.speed = speed
            self.depth = depth
        }
    }

    /// How samples are interpolated between their stored points.
    public enum Interpolation: Int32, Hashable, Sendable, CaseIterable {
        case none = 0
        case linear = 1
        /// Fourth order: FluidSynth's default, good quality.
        case cubic = 4
        /// Seventh order: the best FluidSynth has.
        case sinc = 7
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

    public init(sampleRate: Double = 44_100, gain: Double, polyphony: Int = 256, interpolation: Interpolation = .cubic,
                reverb: Reverb? = Reverb(), chorus: Chorus? = Chorus(), midiMode: MIDIMode? = nil) {
        self.sampleRate = sampleRate
        self.gain = gain
        self.polyphony = polyphony
        self.interpolation = interpolation
        self.reverb = reverb
        self.chorus = chorus
        self.midiMode = midiMode
    }
}
