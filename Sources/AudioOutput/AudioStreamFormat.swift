import CSndFile

/// The kinds of audio smfplay can write to a pipe (`render -o -`): formats whose reader needs
/// nothing the writer only knows at the end. AIFF is not one: its header must hold the length,
/// and no reader takes a placeholder for it.
public enum AudioStreamFormat: String, CaseIterable, Hashable, Sendable {
    /// RIFF WAV whose sizes say "unknown" (0xFFFFFFFF), as sox and ffmpeg write to pipes.
    case wav
    /// FLAC without the length and checksum in its STREAMINFO block, which the encoder can
    /// only fill in by seeking back: both are optional.
    case flac
    case ogg
    /// Headerless interleaved samples, little-endian.
    case raw

    /// Reads a `--format` value, in any case.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The stream of a file format, if it streams.
    public init?(_ fileFormat: AudioFileFormat) {
        switch fileFormat {
        case .wav: self = .wav
        case .flac: self = .flac
        case .ogg: self = .ogg
        case .aiff: return nil
        }
    }

    /// The encodings the format can carry; Ogg Vorbis accepts every encoding and ignores it.
    public var supportedEncodings: [SampleEncoding] {
        switch self {
        case .wav, .raw, .ogg: SampleEncoding.allCases
        case .flac: AudioFileFormat.flac.supportedEncodings
        }
    }

    /// What libsndfile writes: WAV's samples go out as raw ones after a header written here
    /// (libsndfile's WAV writer seeks back to its header twice, which a pipe cannot do).
    func sndfileFormat(encoding: SampleEncoding) -> Int32 {
        switch self {
        case .wav, .raw: Int32(SF_FORMAT_RAW) | encoding.sndfileSubtype | Int32(SF_ENDIAN_LITTLE)
        case .flac: AudioFileFormat.flac.sndfileFormat(encoding: encoding)
        case .ogg: AudioFileFormat.ogg.sndfileFormat(encoding: encoding)
        }
    }
}
