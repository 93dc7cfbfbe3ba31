import CSndFile

#if canImport(Glibc)
    import Glibc
#endif

/// How a libsndfile handle that wrote audio is closed, for a file and for a stream alike.
enum SoundFileClosing {
    /// Closes `sndfile`, having its encoder write its last frames, and says what went wrong: the
    /// descriptor's first error (`ioError`), else libsndfile's; nil when all went out.
    /// `isEmptyFLAC`: a FLAC encoder that was never given a frame, which libsndfile starts only on
    /// the first write, and would leave without even a header (nothing could read it).
    static func close(_ sndfile: OpaquePointer, isEmptyFLAC: Bool, ioError: () -> Int32?) -> AudioFileError.Cause? {
        if isEmptyFLAC { sf_command(sndfile, Int32(SFC_UPDATE_HEADER_NOW), nil, 0) }
        let result = sf_close(sndfile)
        if let code = ioError() { return .system(errno: code) }
        guard result == 0 else { return .library(tidying: String(cString: sf_error_number(result))) }
        return nil
    }
}
