import CSndFile
import SystemPackage

/// The kinds of audio smfplay writes: to a file, chosen from the output's extension or `--format`;
/// or to a pipe (`render -o -`), where a format's reader must need nothing the writer only knows
/// at the end. The one list of them: the configuration, the command line and the writers all
/// take theirs from here.
public enum AudioFileFormat: String, CaseIterable, Hashable, Sendable {
    /// RIFF WAV. To a pipe, its sizes say "unknown" (0xFFFFFFFF), as sox and ffmpeg write them.
    case wav
    /// FLAC. To a pipe, without the length and checksum in its STREAMINFO block, which the encoder
    /// can only fill in by seeking back: both are optional.
    case flac
    /// Ogg Vorbis. Lossy: it has no bit depth, so the sample encoding is ignored.
    case ogg
    /// MP3 (LAME), at a variable bit rate. Lossy, as Ogg Vorbis. To a pipe, without the header
    /// frame that holds its length and seek table (LAME fills it in by seeking back).
    case mp3
    /// Opus, in an Ogg stream. Lossy, as Ogg Vorbis; at 8, 12, 16, 24 or 48 kHz only.
    case opus
    /// To files only: its header must hold the length, and no reader takes a placeholder for it.
    case aiff
    /// Headerless interleaved samples, little-endian: to a pipe only, since a file of them says
    /// nothing of how to read it.
    case raw

    /// The formats of files.
    public static let fileFormats = allCases.filter(\.writesFiles)
    /// The formats that can go down a pipe.
    public static let streamFormats = allCases.filter(\.streams)

    public var writesFiles: Bool { self != .raw }
    public var streams: Bool { self != .aiff }

    /// Reads a `--format` value, in any case.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// Reads a file's extension, with or without its dot, in any case. `.aif` is AIFF and `.oga`
    /// is Ogg.
    public init?(fileExtension: String) {
        var name = Substring(fileExtension.lowercased())
        if name.hasPrefix(".") { name = name.dropFirst() }
        switch name {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        case "aiff", "aif": self = .aiff
        case "mp3": self = .mp3
        case "opus": self = .opus
        // Not "raw": a file of headerless samples is not one smfplay writes.
        default: return nil
        }
    }

    /// The format a path's extension names, or nil when it has none that smfplay knows.
    public init?(path: FilePath) {
        guard let fileExtension = path.extension else { return nil }
        self.init(fileExtension: fileExtension)
    }

    /// The extension smfplay gives files of this format, without its dot.
    public var fileExtension: String { rawValue }

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .wav: "WAV"
        case .flac: "FLAC"
        case .ogg: "Ogg Vorbis"
        case .aiff: "AIFF"
        case .mp3: "MP3"
        case .opus: "Opus"
        case .raw: "raw samples"
        }
    }

    /// False for the lossy formats (Ogg Vorbis, MP3, Opus), which store no samples as such: any
    /// encoding is accepted and ignored.
    public var storesSampleEncoding: Bool { ![.ogg, .mp3, .opus].contains(self) }

    /// True for the formats whose encoder takes an ``EncodingQuality``: the lossy ones, and FLAC.
    public var takesQuality: Bool { [.flac, .ogg, .mp3, .opus].contains(self) }

    /// The quality a file of this format gets when none is asked for; nil leaves it to the encoder
    /// (FLAC's level 5; for Opus, libopus picks a bit rate, about 120 kbit/s for stereo at 48 kHz).
    public var defaultQuality: EncodingQuality? {
        switch self {
        // oggenc's default is 3; 6 (about 190 kbit/s for 44.1 kHz stereo) is transparent for most music.
        case .ogg: EncodingQuality(6)
        // LAME's -V 2 (about 190 kbit/s), the setting its documentation recommends for transparency;
        // libsndfile's own default is LAME's -V 4.
        case .mp3: EncodingQuality(8)
        case .wav, .aiff, .raw, .flac, .opus: nil
        }
    }

    /// The encodings this format can store. The lossy ones accept every encoding and ignore it.
    public var supportedEncodings: [SampleEncoding] {
        switch self {
        case .wav, .aiff, .ogg, .mp3, .opus, .raw: SampleEncoding.allCases
        // FLAC is an integer codec: libsndfile has no float subtype for it.
        case .flac: [.pcm16, .pcm24]
        }
    }

    /// The sample rates the format (as libsndfile and its codecs write it) accepts.
    public var supportedSampleRates: SupportedSampleRates {
        switch self {
        // WAV keeps the rate in 32 bits, AIFF as an 80-bit float: any positive int libsndfile takes.
        case .wav, .aiff, .raw: .range(1...Int(Int32.max))
        // libsndfile's flac_enc_init refuses rates outside the FLAC format's 1 Hz–655350 Hz.
        case .flac: .range(1...655_350)
        // libvorbis has encoder setups up to 200 kHz; above it libsndfile opens the file but every
        // write fails ("Format not recognised"), so the limit is checked before anything is rendered.
        case .ogg: .range(1...200_000)
        // The rates of MPEG-1, 2 and 2.5 layer III: LAME refuses the others (libsndfile does not resample).
        case .mp3: .only([8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000], otherwise: 44_100)
        // Opus codes at these rates only; players decode it at 48 kHz whatever it was made at.
        case .opus: .only([8_000, 12_000, 16_000, 24_000, 48_000], otherwise: 48_000)
        }
    }

    /// The channel counts the format accepts.
    public var supportedChannelCounts: ClosedRange<Int> {
        switch self {
        // SF_MAX_CHANNELS in libsndfile.
        case .wav, .aiff, .raw: 1...1024
        // FLAC__MAX_CHANNELS.
        case .flac: 1...8
        // A Vorbis or Opus header stores the channel count in one byte.
        case .ogg, .opus: 1...255
        // MPEG audio is mono or stereo.
        case .mp3: 1...2
        }
    }

    /// Checks that a file of this format can hold `encoding`, `sampleRate` and `channels`, so that a
    /// render can be refused before any work. `path` is only used to name the file in the error.
    public func validate(encoding: SampleEncoding, sampleRate: Int, channels: Int, path: FilePath) throws(AudioFileError) {
        guard supportedEncodings.contains(encoding) else {
            throw .unsupportedEncoding(path: path, format: self, encoding: encoding)
        }
        guard supportedSampleRates.contains(sampleRate) else {
            throw .unsupportedSampleRate(path: path, format: self, sampleRate: sampleRate)
        }
        guard supportedChannelCounts.contains(channels) else {
            throw .unsupportedChannelCount(path: path, format: self, channels: channels)
        }
    }

    /// libsndfile's major format and subtype for a file of this format in `encoding`.
    func sndfileFormat(encoding: SampleEncoding) -> Int32 {
        switch self {
        case .wav: Int32(SF_FORMAT_WAV) | encoding.sndfileSubtype
        case .aiff: Int32(SF_FORMAT_AIFF) | encoding.sndfileSubtype
        case .flac: Int32(SF_FORMAT_FLAC) | encoding.sndfileSubtype
        case .ogg: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        case .mp3: Int32(SF_FORMAT_MPEG) | Int32(SF_FORMAT_MPEG_LAYER_III)
        case .opus: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        case .raw: Int32(SF_FORMAT_RAW) | encoding.sndfileSubtype | Int32(SF_ENDIAN_LITTLE)
        }
    }

    /// What libsndfile writes to a pipe: WAV's samples go out as raw ones after a header written
    /// by ``AudioStreamWriter`` (libsndfile's WAV writer seeks back to its header twice, which a
    /// pipe cannot do).
    func streamSndfileFormat(encoding: SampleEncoding) -> Int32 {
        self == .wav ? AudioFileFormat.raw.sndfileFormat(encoding: encoding) : sndfileFormat(encoding: encoding)
    }

    /// The format of a file libsndfile opened, or nil for the ones smfplay does not write
    /// (MPEG layers I and II, Ogg FLAC or Speex among them).
    init?(sndfileFormat format: Int32) {
        let major = Int(format) & SF_FORMAT_TYPEMASK
        let subtype = Int(format) & SF_FORMAT_SUBMASK
        switch major {
        case SF_FORMAT_WAV, SF_FORMAT_WAVEX: self = .wav
        case SF_FORMAT_AIFF: self = .aiff
        case SF_FORMAT_FLAC: self = .flac
        case SF_FORMAT_OGG where subtype == SF_FORMAT_VORBIS: self = .ogg
        case SF_FORMAT_OGG where subtype == SF_FORMAT_OPUS: self = .opus
        case SF_FORMAT_MPEG where subtype == SF_FORMAT_MPEG_LAYER_III: self = .mp3
        default: return nil
        }
    }
}

extension AudioFileFormat: CustomStringConvertible {
    public var description: String { displayName }
}
