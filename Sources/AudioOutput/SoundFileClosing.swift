import CSndFile

#if canImport(Glibc)
    import Glibc
#endif

/// How a libsndfile handle that wrote audio is closed, for a file and for a stream alike.
enum SoundFileClosing {
    /// Closes `sndfile`, having its encoder write its last frames, and says what went wrong: the
    /// descriptor's first error (`ioError`), else libsndfile's; nil when all went out.
    ///
    /// `isEmpty`: no frame was written. libsndfile starts the FLAC and MP3 encoders on the first
    /// write only, and would leave such a file without even a header (an MP3 file of 0 bytes):
    /// nothing could read it, so they are started now. An Ogg Opus stream without a single audio
    /// packet is one that neither libsndfile nor ffmpeg reads ("malformed"), and libsndfile writes
    /// no packet without a sample: an empty Opus file gets one silent frame.
    static func close(_ sndfile: OpaquePointer, format: AudioFileFormat, isEmpty: Bool, ioError: () -> Int32?) -> AudioFileError.Cause? {
        if isEmpty {
            switch format {
            case .flac, .mp3:
                sf_command(sndfile, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
            case .opus:
                // One frame of as many channels as Opus can have.
                let silence = [Float](repeating: 0, count: format.supportedChannelCounts.upperBound)
                _ = silence.withUnsafeBufferPointer { sf_writef_float(sndfile, $0.baseAddress, 1) }
            case .wav, .ogg, .aiff, .raw:
                break
            }
        }
        let result = sf_close(sndfile)
        if let code = ioError() { return .system(errno: code) }
        guard result == 0 else { return .library(tidying: String(cString: sf_error_number(result))) }
        return nil
    }
}
