/// Where rendered samples go: an audio file, or a stream on a pipe.
public protocol AudioSampleWriter: AnyObject {
    /// Appends interleaved samples: `samples.count` must be a multiple of the channel count.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError)
    /// The largest magnitude of any sample written so far, before clipping.
    var peak: Float { get }
}

extension AudioFileWriter: AudioSampleWriter {}
