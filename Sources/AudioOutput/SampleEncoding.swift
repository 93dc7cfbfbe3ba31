import CSndFile

/// How each sample is stored in an audio file: the `--bits` option.
public enum SampleEncoding: String, CaseIterable, Hashable, Sendable {
    case pcm16 = "16"
    case pcm24 = "24"
    case float32 = "32f"

    /// Parses the `--bits` values `16`, `24` and `32f` (the `f` in any case).
    public init?(bits: String) {
        self.init(rawValue: bits.lowercased())
    }

    /// The value `--bits` takes for this encoding.
    public var bitsOption: String { rawValue }

    public var bitsPerSample: Int {
        switch self {
        case .pcm16: 16
        case .pcm24: 24
        case .float32: 32
        }
    }

    public var isFloatingPoint: Bool { self == .float32 }

    /// libsndfile's subtype for this encoding.
    var sndfileSubtype: Int32 {
        switch self {
        case .pcm16: Int32(SF_FORMAT_PCM_16)
        case .pcm24: Int32(SF_FORMAT_PCM_24)
        case .float32: Int32(SF_FORMAT_FLOAT)
        }
    }

    /// The encoding of a file libsndfile opened, or nil for the ones smfplay does not write (Vorbis among them).
    init?(sndfileSubtype subtype: Int32) {
        switch Int(subtype) {
        case SF_FORMAT_PCM_16: self = .pcm16
        case SF_FORMAT_PCM_24: self = .pcm24
        case SF_FORMAT_FLOAT: self = .float32
        default: return nil
        }
    }
}

extension SampleEncoding: CustomStringConvertible {
    public var description: String {
        switch self {
        case .pcm16: "16-bit PCM"
        case .pcm24: "24-bit PCM"
        case .float32: "32-bit float"
        }
    }
}
