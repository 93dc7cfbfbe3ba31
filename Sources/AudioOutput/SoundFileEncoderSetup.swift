import CSndFile

/// How a libsndfile handle just opened for writing is set up before its first sample, for a file
/// and for a stream alike: libsndfile sets its encoders up on the first write.
enum SoundFileEncoderSetup {
    /// Sets clipping for integer samples, and `quality` (else the format's default) for the
    /// encoders that take one. Returns what libsndfile refused.
    static func apply(to sndfile: OpaquePointer, format: AudioFileFormat, encoding: SampleEncoding, quality: EncodingQuality?) -> AudioFileError
        .Cause?
    {
        if format.storesSampleEncoding, !encoding.isFloatingPoint {
            // Without it, a sample beyond ±1 wraps round to the opposite sign: a loud click.
            sf_command(sndfile, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        }
        guard format.takesQuality, let quality = quality ?? format.defaultQuality else { return nil }
        var level = quality.compressionLevel
        // libsndfile hands LAME 10 × the level as its -V, and LAME takes at most 9.999: it would use
        // that for 10 but make libsndfile report a failure.
        if format == .mp3 { level = min(level, 0.9999) }
        guard sf_command(sndfile, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size)) == SF_TRUE else {
            return .library("libsndfile refused the \(format.displayName) encoder's quality \(quality.value)")
        }
        return nil
    }
}
