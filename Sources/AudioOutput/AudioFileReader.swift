import CSndFile
import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an audio file as interleaved floats: to check a render, or to copy a float render into its
/// final file with a gain (`AudioFileWriter.copy(from:gain:)`).
///
/// Integer samples come back scaled to ±1 (full scale reads as 1.0 − 1 LSB); float samples come back
/// as they were stored, beyond ±1 included.
public final class AudioFileReader {
    public let path: FilePath
    public let sampleRate: Int
    public let channels: Int
    /// Frames in the file, as its header (or, for Ogg, its last page) says.
    public let frameCount: Int
    /// The file's format, or nil when it is one smfplay does not write.
    public let format: AudioFileFormat?
    /// The file's sample encoding, or nil when it is none of smfplay's: always nil for the lossy
    /// formats (Ogg Vorbis, MP3, Opus), which have no bit depth.
    public let encoding: SampleEncoding?
    /// The texts the file says about its song (those its format keeps: see ``AudioFileTags``).
    public let tags: AudioFileTags

    /// Kept open while libsndfile reads it.
    private let file: ReadableFile
    private let io: FileDescriptorIO
    private let sndfile: OpaquePointer

    public init(path: FilePath) throws(AudioFileError) {
        if let cause = AudioLibraries.loadSoundFile() { throw .cannotOpen(path: path, cause: cause) }
        // Opened here rather than by libsndfile so that a missing file or a folder is told apart
        // from a file that is not audio.
        let file: ReadableFile
        do {
            file = try ReadableFile(path)
        } catch {
            let cause: AudioFileError.Cause =
                switch error {
                case .missing: .system(errno: Errno.noSuchFileOrDirectory.rawValue)
                case .folder: .system(errno: Errno.isDirectory.rawValue)
                case .notARegularFile, .tooLarge: .notARegularFile
                case .system(let code): .system(errno: code.rawValue)
                }
            throw .cannotOpen(path: path, cause: cause)
        }
        let io = FileDescriptorIO(descriptor: file.descriptor)
        var info = SF_INFO()
        var callbacks = FileDescriptorIO.callbacks
        guard let sndfile = sf_open_virtual(&callbacks, Int32(SFM_READ), &info, io.userData) else {
            if let code = io.firstError { throw .cannotOpen(path: path, cause: .system(errno: code)) }
            throw .notAnAudioFile(path: path, reason: AudioFileError.Cause.library(tidying: String(cString: sf_strerror(nil))).description)
        }
        self.path = path
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        // FLAC stores "0 samples" as "length unknown", which libsndfile reports as SF_COUNT_MAX: the
        // empty files smfplay writes, or streams cut without their header. Counting is then the only way.
        self.frameCount = info.frames == sf_count_t.max ? Self.countFrames(sndfile, channels: Int(info.channels)) : Int(info.frames)
        self.format = AudioFileFormat(sndfileFormat: info.format)
        self.encoding = self.format?.storesSampleEncoding == false ? nil : SampleEncoding(sndfileSubtype: info.format & Int32(SF_FORMAT_SUBMASK))
        self.tags = AudioFileTags(reading: sndfile)
        self.file = file
        self.io = io
        self.sndfile = sndfile
    }

    /// Decodes the whole file to count its frames, then goes back to its start.
    private static func countFrames(_ sndfile: OpaquePointer, channels: Int) -> Int {
        var buffer = [Float](repeating: 0, count: 4096 * max(channels, 1))
        var total = 0
        while true {
            let read = buffer.withUnsafeMutableBufferPointer { sf_readf_float(sndfile, $0.baseAddress, 4096) }
            if read <= 0 { break }
            total += Int(read)
        }
        sf_seek(sndfile, 0, SEEK_SET)
        return total
    }

    deinit {
        // Before the file closes: libsndfile reads through its descriptor until it is closed.
        sf_close(sndfile)
    }

    /// Reads as many whole frames as fit in `buffer` and returns how many it read: 0 at the end.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioFileError) -> Int {
        let frames = buffer.count / channels
        guard let base = buffer.baseAddress, frames > 0 else { return 0 }
        let read = Int(sf_readf_float(sndfile, base, sf_count_t(frames)))
        if let code = io.firstError { throw .readFailed(path: path, cause: .system(errno: code)) }
        if read < frames, sf_error(sndfile) != 0 {
            throw .readFailed(path: path, cause: .library(tidying: String(cString: sf_strerror(sndfile))))
        }
        return read
    }

    /// Every frame from here to the end, interleaved.
    public func readAll() throws(AudioFileError) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frameCount * channels)
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096 * channels)
        defer { buffer.deallocate() }
        while true {
            let frames = try read(into: buffer)
            if frames == 0 { return samples }
            samples.append(contentsOf: buffer[..<(frames * channels)])
        }
    }
}
