import CSndFile
import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes an audio file that appears only when complete.
///
/// Samples go to a hidden temporary file beside `path` (`.<name>.part-<pid>-<n>`); `finish()` closes
/// it, flushes it to disk and renames it over `path`. A writer that fails, or that is dropped without
/// `finish()` (a cancelled render), removes its temporary file, so nothing is ever left under `path`
/// but a whole file, and an older file there stays untouched until the new one replaces it.
///
/// Samples are interleaved floats, nominally within ±1. Integer encodings clip what lies beyond
/// (libsndfile's clipping control) instead of letting it wrap round; `float32` keeps it as it is,
/// which is what a render that will be normalised later wants.
public final class AudioFileWriter {
    /// The final path, which exists only once `finish()` has succeeded.
    public let path: FilePath
    public let format: AudioFileFormat
    /// The encoding asked for; the lossy formats ignore it.
    public let encoding: SampleEncoding
    public let sampleRate: Int
    public let channels: Int
    /// Frames written so far.
    public private(set) var framesWritten = 0
    /// Whether a WAV file is written as RF64: only one that may pass 4 GiB (see `init`), as
    /// RF64's format chunk (WAVE_FORMAT_EXTENSIBLE) is one that simpler readers refuse.
    let writesRF64: Bool
    /// The largest magnitude of any sample written so far, before clipping: the peak a
    /// normalisation pass needs, without reading the file again.
    public private(set) var peak: Float = 0

    /// The temporary file being written, until it is renamed or removed.
    var temporaryPath: FilePath { file.temporaryPath }
    private let file: StagedFile
    private let io: FileDescriptorIO
    /// Kept for ``finish(replayGain:)``: TagLib writes what libsndfile could not.
    private let tags: AudioFileTags
    private var sndfile: OpaquePointer?
    private var state = State.open

    private enum State {
        case open
        case finished
        case failed(AudioFileError)
    }

    /// Opens a temporary file beside `path` for a new audio file, its `tags` set at once (see
    /// ``AudioFileTags`` for what each format keeps), its encoder at `quality` (nil: the format's
    /// default; formats without an encoder ignore it). Nothing exists under `path` until `finish()`.
    /// Throws when the combination cannot be stored (see `AudioFileFormat.validate`) or when the
    /// file cannot be created. `mostFrames`, the most the render can write (the song and its
    /// longest tail), makes a WAV file that may pass 4 GiB RF64 (which libsndfile makes plain WAV
    /// again on closing if it stays under); a WAV or AIFF file without room for what is written
    /// fails when it gets there, rather than have its 32-bit sizes wrap round.
    public convenience init(
        path: FilePath, format: AudioFileFormat, encoding: SampleEncoding, sampleRate: Int, channels: Int, tags: AudioFileTags = AudioFileTags(),
        quality: EncodingQuality? = nil, mostFrames: Int? = nil
    ) throws(AudioFileError) {
        try format.validate(encoding: encoding, sampleRate: sampleRate, channels: channels, path: path)
        let file: StagedFile
        do {
            file = try StagedFile(destination: path)
        } catch {
            throw .cannotCreate(path: path, cause: AudioFileError.Cause(error))
        }
        try self.init(
            file: file, format: format, encoding: encoding, sampleRate: sampleRate, channels: channels, tags: tags, quality: quality,
            mostFrames: mostFrames)
    }

    /// Writes through `fd`, which it takes over, into `temporaryPath`, which it renames or removes.
    /// Tests pass other descriptors (such as `/dev/full`) here.
    convenience init(
        fileDescriptor fd: Int32, temporaryPath: FilePath,
        path: FilePath, format: AudioFileFormat, encoding: SampleEncoding, sampleRate: Int, channels: Int, tags: AudioFileTags = AudioFileTags()
    ) throws(AudioFileError) {
        let file = StagedFile(descriptor: FileDescriptor(rawValue: fd), temporaryPath: temporaryPath, destination: path)
        try self.init(
            file: file, format: format, encoding: encoding, sampleRate: sampleRate, channels: channels, tags: tags, quality: nil, mostFrames: nil)
    }

    private init(
        file: StagedFile, format: AudioFileFormat, encoding: SampleEncoding, sampleRate: Int, channels: Int, tags: AudioFileTags,
        quality: EncodingQuality?, mostFrames: Int?
    ) throws(AudioFileError) {
        let path = file.destination
        if let cause = AudioLibraries.loadSoundFile() {
            file.discard()
            throw .cannotCreate(path: path, cause: cause)
        }
        let io = FileDescriptorIO(descriptor: file.descriptor)
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        let writesRF64 =
            format == .wav && (mostFrames.map { Self.dataBytes(frames: $0, channels: channels, encoding: encoding) > Self.largestChunkData } ?? false)
        info.format = writesRF64 ? Int32(SF_FORMAT_RF64) | encoding.sndfileSubtype : format.sndfileFormat(encoding: encoding)

        func failure(_ error: AudioFileError, closing sndfile: OpaquePointer? = nil) -> AudioFileError {
            if let sndfile { sf_close(sndfile) }
            file.discard()
            return error
        }
        guard sf_format_check(&info) != 0 else {
            throw failure(
                .cannotCreate(
                    path: path, cause: .library("libsndfile cannot write \(format) as \(encoding) at \(sampleRate) Hz in \(channels) channels")))
        }
        var callbacks = FileDescriptorIO.callbacks
        guard let sndfile = sf_open_virtual(&callbacks, Int32(SFM_WRITE), &info, io.userData) else {
            let cause =
                io.firstError.map { AudioFileError.Cause.system(errno: $0) }
                ?? .library(tidying: String(cString: sf_strerror(nil)))
            throw failure(.cannotCreate(path: path, cause: cause))
        }
        if writesRF64, sf_command(sndfile, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) != SF_TRUE {
            throw failure(.cannotCreate(path: path, cause: .library("libsndfile cannot write a WAV file larger than 4 GiB")), closing: sndfile)
        }
        // WAV and AIFF write their header on opening: a full disk can show already.
        if let code = io.firstError {
            throw failure(.writeFailed(path: path, cause: .system(errno: code)), closing: sndfile)
        }
        // Now, before the first sample: see `AudioFileTags.write(to:)`.
        if let cause = tags.write(to: sndfile) {
            throw failure(.cannotCreate(path: path, cause: cause), closing: sndfile)
        }
        if let cause = SoundFileEncoderSetup.apply(to: sndfile, format: format, encoding: encoding, quality: quality) {
            throw failure(.cannotCreate(path: path, cause: cause), closing: sndfile)
        }

        self.path = path
        self.writesRF64 = writesRF64
        self.format = format
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.file = file
        self.io = io
        self.tags = tags
        self.sndfile = sndfile
    }

    /// The most sample bytes a WAV or AIFF file's 32-bit sizes leave room for, after its header's.
    static let largestChunkData = Int(UInt32.max) - 1024

    /// The bytes `frames` of samples take in a WAV or AIFF file.
    private static func dataBytes(frames: Int, channels: Int, encoding: SampleEncoding) -> Int {
        frames * channels * encoding.bitsPerSample / 8
    }

    deinit {
        // Not finished: a cancelled or failed render leaves nothing behind.
        if case .open = state {
            sf_close(sndfile)
            file.discard()
        }
    }

    /// Appends interleaved samples: `samples.count` must be a multiple of `channels`.
    /// After an error the writer has removed its temporary file, and every later call throws it again.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {
        try checkOpen()
        precondition(samples.count % channels == 0, "\(samples.count) samples are not whole frames of \(channels) channels")
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        var largest = peak
        for sample in samples {
            let magnitude = abs(sample)
            if magnitude > largest { largest = magnitude }
        }
        peak = largest
        let frames = samples.count / channels
        // WAV's and AIFF's sizes are 32 bits, and libsndfile wraps them round past 4 GiB: a file
        // players would read the first minutes of.
        if format == .aiff || (format == .wav && !writesRF64),
            Self.dataBytes(frames: framesWritten + frames, channels: channels, encoding: encoding) > Self.largestChunkData
        {
            throw fail(.library("a \(format.displayName) file holds at most 4 GiB of samples: render this song to FLAC"))
        }
        let written = sf_writef_float(sndfile, base, sf_count_t(frames))
        // The descriptor's error first: it has the errno ("disk full"); libsndfile's message may not.
        if let code = io.firstError { throw fail(.system(errno: code)) }
        guard written == frames else {
            // Some refusals (a FLAC encoder given out-of-range values, say) leave libsndfile's error at "No Error".
            let cause: AudioFileError.Cause =
                sf_error(sndfile) != 0
                ? .library(tidying: String(cString: sf_strerror(sndfile)))
                : .library("libsndfile wrote \(max(written, 0)) of \(frames) frames")
            throw fail(cause)
        }
        framesWritten += frames
    }

    /// Appends interleaved samples: `samples.count` must be a multiple of `channels`.
    public func write(_ samples: [Float]) throws(AudioFileError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(AudioFileError) in try write(buffer) }
    }

    /// Appends everything `reader` has left, multiplied by `gain`: how a render kept as floats is
    /// normalised into its final file. `reader` must have as many channels as this file.
    public func copy(from reader: AudioFileReader, gain: Float = 1) throws(AudioFileError) {
        precondition(reader.channels == channels, "copying \(reader.channels) channels into \(channels)")
        let blockFrames = 4096
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * channels)
        defer { buffer.deallocate() }
        while true {
            let frames = try reader.read(into: buffer)
            if frames == 0 { break }
            let block = UnsafeMutableBufferPointer(rebasing: buffer[..<(frames * channels)])
            if gain != 1 {
                for index in block.indices { block[index] *= gain }
            }
            try write(UnsafeBufferPointer(block))
        }
    }

    /// The gain that brings `peak` to `decibels` relative to full scale (−1 dBFS, 0.891, unless told);
    /// 1 for silence, which no gain can bring anywhere.
    public static func normalizingGain(peak: Float, toDecibelsFullScale decibels: Float = -1) -> Float {
        guard peak > 0, peak.isFinite else { return 1 }
        return Float(pow(10, Double(decibels) / 20)) / peak
    }

    /// Completes the file: closes it, has TagLib add the tags libsndfile cannot write (see
    /// ``TagLibTags``: an MP3 file's ID3v2 tag, an AIFF file's album, genre and date) and
    /// `replayGain`'s values, flushes it to disk, renames it over `path` and flushes the folder. On
    /// error nothing is left under `path` (an older file there is untouched) and the temporary file
    /// is removed.
    public func finish(replayGain: ReplayGain? = nil) throws(AudioFileError) {
        try checkOpen()
        let handle = sndfile
        sndfile = nil
        if let handle, let cause = SoundFileClosing.close(handle, format: format, isEmpty: framesWritten == 0, ioError: { io.firstError }) {
            throw fail(cause)
        }
        // Into the temporary file, by its name, before it is flushed and renamed: no reader ever
        // sees the file without them.
        let tagLibTags = TagLibTags(format: format, tags: tags, replayGain: replayGain)
        if !tagLibTags.isEmpty {
            do {
                try tagLibTags.write(toFileAt: file.temporaryPath)
            } catch {
                throw fail(.taggingFailed(path: path, cause: error))
            }
        }
        do {
            try file.commit()
        } catch {
            throw fail(.system(errno: error.rawValue))
        }
        state = .finished
    }

    private func checkOpen() throws(AudioFileError) {
        switch state {
        case .open: return
        case .failed(let error): throw error
        case .finished: preconditionFailure("\(path.text): written to after finish()")
        }
    }

    /// Gives up: removes the temporary file at once (on a full disk its space is wanted back) and
    /// remembers the error for later calls.
    private func fail(_ cause: AudioFileError.Cause) -> AudioFileError {
        fail(.writeFailed(path: path, cause: cause))
    }

    private func fail(_ error: AudioFileError) -> AudioFileError {
        if let sndfile {
            sf_close(sndfile)
            self.sndfile = nil
        }
        file.discard()
        state = .failed(error)
        return error
    }
}
