import AudioOutput
import SMF
import Synthesis

/// What an offline render produces, beyond the synthesizer's own settings.
public struct RenderOptions: Hashable, Sendable {
    public var format: AudioFileFormat
    public var encoding: SampleEncoding
    /// The encoder's quality; nil: the format's default.
    public var quality: EncodingQuality?
    /// The longest tail rendered after the last event, in seconds; the tail
    /// ends sooner once the output has gone silent.
    public var tailLimit: Double
    /// Each song brought to a loudness, or its peak to −1 dBFS, or neither.
    public var normalization: Normalization
    /// Measure each written file's true peak too, not only its loudness: libebur128's 4×
    /// oversampling costs 10 % of a render's CPU (integrated loudness alone, 3 %), so only where it
    /// is reported (`--json`, `--report`) or promised (`--normalize` keeps it at −1 dBTP).
    public var measuresTruePeak = false
    /// Keep every peak at or below −1 dBFS with the look-ahead limiter (``PeakLimiter``).
    public var limitsPeaks: Bool
    /// The song transposed, faster or slower, channels muted or soloed.
    public var performance: Performance
    /// How often a song's loop plays (game music), and its fade.
    public var loops: LoopSettings
    /// Where a song's own sound bank is looked for.
    public var songBanks: SongBankLookup
    /// The tags written into each file (see ``tagging(_:input:)``, which fills in each song's).
    public var tags = AudioFileTags()
    /// How the songs' texts are read for their tags; nil: each file's own encoding.
    public var textEncoding: TextDecoding.Encoding?
    /// Each song's stems, a file per channel in a folder of its own, and its mix beside them
    /// (``StemRenderer``), in place of one file.
    public var stems = false

    public init(
        format: AudioFileFormat, encoding: SampleEncoding, tailLimit: Double = 10, normalization: Normalization = .off, limitsPeaks: Bool = true,
        performance: Performance = Performance(), loops: LoopSettings = .asWritten, songBanks: SongBankLookup = SongBankLookup()
    ) {
        self.format = format
        self.encoding = encoding
        self.tailLimit = tailLimit
        self.normalization = normalization
        self.limitsPeaks = limitsPeaks
        self.performance = performance
        self.loops = loops
        self.songBanks = songBanks
    }

    /// These options with a song's own settings (its folder's) in place of theirs: its
    /// transposition, its loops and how its texts are read.
    public func with(_ sound: SongSettings?) -> RenderOptions {
        guard let sound else { return self }
        var options = self
        options.performance.transpose = sound.performance.transpose
        options.loops = sound.loops
        options.textEncoding = sound.textEncoding
        return options
    }

    /// The level below which the tail counts as silence: −90 dBFS.
    public static let silenceThreshold: Float = 3.162_277_7e-5
}
