import CSndFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes audio to a descriptor that only goes forward (standard output, a pipe) as it comes:
/// `smfplay render song.mid -o - | ffmpeg -i - song.opus`. Nothing is written anywhere else, and
/// nothing is ever seeked (see ``AudioFileFormat`` for what each format gives up for it).
///
/// Samples are interleaved floats, nominally within ±1; integer encodings clip what lies beyond,
/// as ``AudioFileWriter`` does.
public final class AudioStreamWriter: AudioSampleWriter {
    /// How messages name the stream ("standard output").
    public let name: String
    public let format: AudioFileFormat
    public let encoding: SampleEncoding
    public private(set) var framesWritten = 0
    public private(set) var peak: Float = 0
    private let channels: Int
    private let io: PipeOutputIO
    private var sndfile: OpaquePointer?
    private var failure: AudioFileError?

    /// Starts the stream on `fd`, which stays open (the caller owns it); WAV writes its header now.
    /// FLAC, Ogg Vorbis and Opus streams carry `tags` as libsndfile writes them into a file; MP3
    /// streams libsndfile's ID3v1 tag only (TagLib cannot go back to a stream's start); WAV and raw
    /// streams none (libsndfile writes their samples raw, after smfplay's own WAV header). The
    /// encoder is set to `quality` as ``AudioFileWriter``'s is.
    public init(
        fileDescriptor fd: Int32, name: String, format: AudioFileFormat, encoding: SampleEncoding,
        sampleRate: Int, channels: Int, tags: AudioFileTags = AudioFileTags(), quality: EncodingQuality? = nil
    ) throws(AudioFileError) {
        if let cause = AudioLibraries.loadSoundFile() { throw .streamFailed(name: name, cause: cause) }
        self.name = name
        self.format = format
        self.encoding = encoding
        self.channels = channels
        io = PipeOutputIO(fd: fd)
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.streamSndfileFormat(encoding: encoding)
        guard format.streams, format.supportedEncodings.contains(encoding), sf_format_check(&info) != 0 else {
            throw .streamFailed(
                name: name,
                cause: .library("libsndfile cannot write a \(format.rawValue) stream of \(encoding) at \(sampleRate) Hz in \(channels) channels"))
        }
        if format == .wav {
            let header = WAVStreamHeader(encoding: encoding, sampleRate: sampleRate, channels: channels).bytes
            guard header.withUnsafeBytes({ io.write($0) }) else { throw .streamFailed(name: name, cause: .system(errno: io.firstError ?? EIO)) }
        }
        var callbacks = PipeOutputIO.callbacks
        guard let sndfile = sf_open_virtual(&callbacks, Int32(SFM_WRITE), &info, io.userData) else {
            let cause = io.firstError.map { AudioFileError.Cause.system(errno: $0) } ?? .library(tidying: String(cString: sf_strerror(nil)))
            throw .streamFailed(name: name, cause: cause)
        }
        self.sndfile = sndfile
        // Before the first sample, which sets out the stream's headers that hold them.
        if format != .wav, format != .raw, let cause = tags.write(to: sndfile) {
            throw .streamFailed(name: name, cause: cause)
        }
        if let cause = SoundFileEncoderSetup.apply(to: sndfile, format: format, encoding: encoding, quality: quality) {
            throw .streamFailed(name: name, cause: cause)
        }
    }

    deinit {
        if let sndfile { sf_close(sndfile) }
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {
        if let failure { throw failure }
        precondition(samples.count % channels == 0, "\(samples.count) samples are not whole frames of \(channels) channels")
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        for sample in samples where abs(sample) > peak { peak = abs(sample) }
        let frames = samples.count / channels
        let written = sf_writef_float(sndfile, base, sf_count_t(frames))
        if let code = io.firstError { throw fail(.system(errno: code)) }
        guard written == frames else { throw fail(.library("libsndfile wrote \(max(written, 0)) of \(frames) frames")) }
        framesWritten += frames
    }

    /// Ends the stream: the encoder's last frames go out (FLAC and the lossy encoders hold some back).
    /// The descriptor stays open.
    public func finish() throws(AudioFileError) {
        if let failure { throw failure }
        guard let handle = sndfile else { return }
        sndfile = nil
        if let cause = SoundFileClosing.close(handle, format: format, isEmpty: framesWritten == 0, ioError: { io.firstError }) {
            throw fail(cause)
        }
    }

    private func fail(_ cause: AudioFileError.Cause) -> AudioFileError {
        let error = AudioFileError.streamFailed(name: name, cause: cause)
        if let sndfile {
            sf_close(sndfile)
            self.sndfile = nil
        }
        failure = error
        return error
    }
}
