import SystemPackage
import Testing

@testable import AudioOutput

/// `--normalize-peak`: the render is kept as floats, then copied into the final file with a gain.
struct NormalizationTests {
    @Test(arguments: [
        FileKind(format: .wav, encoding: .pcm24), FileKind(format: .flac, encoding: .pcm16), FileKind(format: .aiff, encoding: .float32),
    ])
    func copyingWithTheGainPutsThePeakAtMinusOneDecibel(kind: FileKind) throws {
        let folder = try TemporaryFolder()
        let floats = try AudioFileWriter(
            path: FilePath(folder.file(".render.wav")), format: .wav, encoding: .float32, sampleRate: 48_000, channels: 2)
        var signal = TestSignal.sine(amplitude: 0.25)
        signal[5_001] = -1.7 // louder than full scale: kept by the float file, brought down by the gain
        try floats.write(signal)
        #expect(floats.peak == 1.7)
        try floats.finish()

        let gain = AudioFileWriter.normalizingGain(peak: floats.peak)
        let path = folder.file("song.\(kind.format.fileExtension)")
        let writer = try AudioFileWriter(path: FilePath(path), format: kind.format, encoding: kind.encoding, sampleRate: 48_000, channels: 2)
        try writer.copy(from: AudioFileReader(path: FilePath(folder.file(".render.wav"))), gain: gain)
        #expect(abs(writer.peak - 0.891) < 0.001)
        try writer.finish()

        let reader = try AudioFileReader(path: FilePath(path))
        #expect(reader.frameCount == TestSignal.frames)
        let samples = try reader.readAll()
        #expect(abs(TestSignal.peak(samples) - 0.891) < 0.001)
        #expect(abs(samples[5_001] + 0.891) < 0.001)
        #expect(abs(samples[2] - signal[2] * gain) <= kind.encoding.tolerance)
    }

    @Test func theGainIsForMinusOneDecibelAndLeavesSilenceAlone() {
        #expect(abs(AudioFileWriter.normalizingGain(peak: 1) - 0.891_25) < 0.000_01)
        #expect(abs(AudioFileWriter.normalizingGain(peak: 0.5) - 1.782_5) < 0.000_1)
        #expect(abs(AudioFileWriter.normalizingGain(peak: 1, toDecibelsFullScale: -6) - 0.501_19) < 0.000_01)
        #expect(AudioFileWriter.normalizingGain(peak: 0) == 1)
        #expect(AudioFileWriter.normalizingGain(peak: .infinity) == 1)
    }
}
