import AudioOutput

/// Takes samples and keeps none: where the measuring pass of a render normalized to a loudness
/// writes, its meter hearing everything.
final class DiscardingSampleWriter: AudioSampleWriter {
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioFileError) {}

    var peak: Float { 0 }
}
