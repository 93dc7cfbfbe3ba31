import SystemPackage

/// The tags TagLib adds to a finished file, where libsndfile cannot write them (libsndfile 1.2,
/// TagLib 1.13):
/// - MP3: every text, as an ID3v2.4 tag in UTF-8 (libsndfile writes only an ID3v1 tag: 30 bytes a
///   text, no encoding named), and the ReplayGain values (`TXXX` frames).
/// - AIFF: every text, as an ID3v2.4 tag in an `ID3 ` chunk (libsndfile writes no album, genre or
///   date), and the ReplayGain values.
/// - FLAC, Ogg Vorbis: the ReplayGain values, as Vorbis comments (libsndfile writes the texts).
/// - Opus: `R128_TRACK_GAIN` and `R128_ALBUM_GAIN` in place of the ReplayGain values.
/// - WAV: nothing; its `LIST INFO` chunk has no place for ReplayGain.
struct TagLibTags {
    let format: AudioFileFormat
    let properties: [(name: String, value: String)]

    init(format: AudioFileFormat, tags: AudioFileTags, replayGain: ReplayGain?) {
        self.format = format
        var properties: [(name: String, value: String)] = []
        if format == .mp3 || format == .aiff { properties += tags.tagLibProperties }
        if let replayGain {
            switch format {
            case .mp3, .aiff, .flac, .ogg: properties += replayGain.replayGainProperties
            case .opus: properties += replayGain.r128Properties
            case .wav, .raw: break
            }
        }
        self.properties = properties
    }

    /// Nothing to add: the file is left as libsndfile wrote it.
    var isEmpty: Bool { properties.isEmpty }

    /// Adds the tags to the file at `path`, written as ``format``, in place.
    func write(toFileAt path: FilePath) throws(AudioFileError.TaggingFailure) {
        let file = try TagLibFile(path: path, format: format)
        for property in properties { file.set(property.name, to: property.value) }
        try file.save()
    }
}

extension AudioFileTags {
    /// The texts as TagLib's properties, each cut as libsndfile's are (``storable(_:)``). The
    /// software is ID3v2's `TSSE` frame ("ENCODING" to TagLib), which players show as the encoder.
    fileprivate var tagLibProperties: [(name: String, value: String)] {
        let fields: [(name: String, text: String?)] = [
            ("TITLE", title), ("ARTIST", artist), ("ALBUM", album), ("GENRE", genre), ("DATE", date), ("COMMENT", comment),
            ("COPYRIGHT", copyright), ("ENCODING", software),
        ]
        return fields.compactMap { field in
            guard let text = field.text.map(Self.storable), !text.isEmpty else { return nil }
            return (field.name, text)
        }
    }
}
