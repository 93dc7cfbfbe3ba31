import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an audio file could not be written or read. Every message names the file.
public enum AudioFileError: Error, Hashable, Sendable {
    /// The output's extension (or `--format` value) names no format smfplay writes.
    case unknownFormat(path: FilePath)
    /// The format cannot store the encoding: FLAC has no float samples.
    case unsupportedEncoding(path: FilePath, format: AudioFileFormat, encoding: SampleEncoding)
    case unsupportedSampleRate(path: FilePath, format: AudioFileFormat, sampleRate: Int)
    case unsupportedChannelCount(path: FilePath, format: AudioFileFormat, channels: Int)
    /// The file (its temporary twin, in fact) could not be created.
    case cannotCreate(path: FilePath, cause: Cause)
    /// Writing, closing, flushing or renaming failed; nothing was left under `path`.
    case writeFailed(path: FilePath, cause: Cause)
    /// TagLib could not write the tags that libsndfile cannot into the finished file (see
    /// ``AudioFileWriter/finish(replayGain:)``); nothing was left under `path`.
    case taggingFailed(path: FilePath, cause: TaggingFailure)
    /// The file could not be opened for reading.
    case cannotOpen(path: FilePath, cause: Cause)
    /// The file opened, but libsndfile does not recognise it as audio.
    case notAnAudioFile(path: FilePath, reason: String)
    case readFailed(path: FilePath, cause: Cause)
    /// Audio written to a stream (standard output) could not go out; `name` is how messages call it.
    case streamFailed(name: String, cause: Cause)

    /// What went wrong underneath.
    public enum Cause: Hashable, Sendable {
        /// A system call failed with this `errno`.
        case system(errno: Int32)
        /// libsndfile refused, in its own words.
        case library(String)
        /// The folder that should hold the file does not exist.
        case folderMissing(FilePath)
        /// A path that should be a folder is a file.
        case notAFolder(FilePath)
        /// The output's path names a device, a pipe or a socket, which the rename of a finished
        /// file would replace (`/dev/null` turned into a file of audio).
        case notARegularFile
    }

    /// Why TagLib did not tag a file.
    public enum TaggingFailure: Error, Hashable, Sendable {
        /// TagLib did not recognise the file libsndfile had just written as one of this format.
        case notReadable(AudioFileFormat)
        /// TagLib could not save the tags (it says no more: its C API reports a failure as false).
        case notSaved
        /// TagLib, opened at its first use, could not be.
        case libraryMissing(reason: String)
    }

    /// The file the error is about; for a stream, its name.
    public var path: FilePath {
        switch self {
        case .streamFailed(let name, _): FilePath(name)
        case .unknownFormat(let path), .unsupportedEncoding(let path, _, _), .unsupportedSampleRate(let path, _, _),
            .unsupportedChannelCount(let path, _, _), .cannotCreate(let path, _), .writeFailed(let path, _), .taggingFailed(let path, _),
            .cannotOpen(let path, _), .notAnAudioFile(let path, _), .readFailed(let path, _):
            path
        }
    }
}

extension AudioFileError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownFormat(let path):
            "\(path.text): unknown audio file type; use .wav, .flac, .ogg, .mp3, .opus or .aiff, or --format"
        case .unsupportedEncoding(let path, let format, let encoding) where format == .flac && encoding == .float32:
            "\(path.text): flac cannot store 32-bit float samples; use --bits 16 or 24"
        case .unsupportedEncoding(let path, let format, let encoding):
            "\(path.text): \(format.rawValue) cannot store \(encoding) samples; use --bits \(format.supportedEncodings.map(\.bitsOption).joined(separator: " or "))"
        case .unsupportedSampleRate(let path, let format, let sampleRate):
            "\(path.text): \(format.rawValue) cannot store a sample rate of \(sampleRate) Hz; "
                + "use \(format.supportedSampleRates)"
        case .unsupportedChannelCount(let path, let format, let channels):
            "\(path.text): \(format.rawValue) cannot store \(channels) channels; "
                + "use \(format.supportedChannelCounts.lowerBound)–\(format.supportedChannelCounts.upperBound)"
        case .cannotCreate(let path, let cause):
            "\(path.text): cannot create the file: \(cause)"
        case .writeFailed(let path, let cause):
            "\(path.text): cannot write the file: \(cause)"
        case .taggingFailed(let path, let cause):
            "\(path.text): cannot write the tags: \(cause)"
        case .cannotOpen(let path, let cause):
            "\(path.text): cannot open the file: \(cause)"
        case .notAnAudioFile(let path, let reason):
            "\(path.text): not an audio file libsndfile can read: \(reason)"
        case .readFailed(let path, let cause):
            "\(path.text): cannot read the file: \(cause)"
        case .streamFailed(let name, let cause):
            "\(name): cannot write the audio: \(cause)"
        }
    }
}

extension AudioFileError.Cause: CustomStringConvertible {
    public var description: String {
        switch self {
        case .system(let code):
            SystemError.text(code)
        case .library(let message): message
        case .folderMissing(let folder): "the folder \(folder.text) does not exist"
        case .notAFolder(let path): "\(path.text) is not a folder"
        case .notARegularFile: "it is a device, a pipe or a socket, not a file: give the path of a file"
        }
    }

    /// libsndfile's messages read "Error : …" or "System error : …."; keep only what they say.
    static func library(tidying message: String) -> Self {
        var text = Substring(message)
        for prefix in ["System error : ", "Error : "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        while text.last == "." || text.last == " " { text = text.dropLast() }
        guard let first = text.first else { return .library("unknown libsndfile error") }
        return .library(first.lowercased() + text.dropFirst())
    }
}

extension AudioFileError.TaggingFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notReadable(let format): "TagLib does not read the file written as \(format.displayName)"
        case .notSaved: "TagLib could not save them"
        case .libraryMissing(let reason): "TagLib could not be opened: \(reason)"
        }
    }
}

extension AudioFileError.Cause {
    /// Why the temporary file of an output could not be created.
    init(_ failure: TemporarySibling.Failure) {
        switch failure {
        case .system(let code): self = .system(errno: code)
        case .folderMissing(let folder): self = .folderMissing(folder)
        case .notAFolder(let path): self = .notAFolder(path)
        case .notARegularFile: self = .notARegularFile
        }
    }
}
