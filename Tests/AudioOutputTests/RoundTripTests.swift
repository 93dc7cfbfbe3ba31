import Foundation
import SystemPackage
import Testing

@testable import AudioOutput

/// Writes the known signal in every format and encoding smfplay offers and reads it back.
struct RoundTripTests {
    @Test(arguments: FileKind.all)
    func writesWhatReadsBack(kind: FileKind) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("signal.\(kind.format.fileExtension)")
        // The lossy formats are judged by level only: spikes at ±1.5 would just smear into their neighbours.
        let signal = kind.format.storesSampleEncoding ? TestSignal.withOvers() : TestSignal.sine()
        let writer = try AudioFileWriter(
            path: FilePath(path), format: kind.format, encoding: kind.encoding, sampleRate: TestSignal.sampleRate, channels: TestSignal.channels
        )
        try writer.write(signal)
        #expect(writer.framesWritten == TestSignal.frames)
        #expect(writer.peak == TestSignal.peak(signal))
        try writer.finish()

        if kind.format == .wav {
            // Plain WAV, its format chunk's tag PCM (1) or float (3), as the simplest readers take:
            // not RF64's WAVE_FORMAT_EXTENSIBLE, for a file that cannot pass 4 GiB.
            let head = Array(try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 22))
            #expect(Array(head[0..<4]) == Array("RIFF".utf8) && Array(head[8..<16]) == Array("WAVEfmt ".utf8), "\(head)")
            #expect(head[20] == (kind.encoding.isFloatingPoint ? 3 : 1) && head[21] == 0, "\(head)")
        }
        let reader = try AudioFileReader(path: FilePath(path))
        #expect(reader.format == kind.format)
        #expect(reader.channels == TestSignal.channels)
        #expect(reader.sampleRate == TestSignal.sampleRate)
        #expect(reader.frameCount == TestSignal.frames)
        let samples = try reader.readAll()
        try #require(samples.count == signal.count)

        if !kind.format.storesSampleEncoding {
            #expect(reader.encoding == nil)
            let expectedRMS = TestSignal.amplitude / Float(2).squareRoot()
            for channel in 0..<2 {
                #expect(abs(TestSignal.rms(samples, channel: channel) - expectedRMS) < 0.02 * expectedRMS)
            }
            // Away from the edges, where the cosine's step from silence to 0.5 rings in MP3 (0.64 at its peak).
            let middle = Array(samples[4_096..<(samples.count - 4_096)])
            #expect(abs(TestSignal.peak(middle) - TestSignal.amplitude) < 0.05, "\(TestSignal.peak(middle)) against \(TestSignal.amplitude)")
            return
        }
        #expect(reader.encoding == kind.encoding)
        var worst: Float = 0
        for index in signal.indices where !TestSignal.isOver(sampleIndex: index) {
            worst = max(worst, abs(samples[index] - signal[index]))
        }
        #expect(worst <= kind.encoding.tolerance)
        for index in signal.indices where TestSignal.isOver(sampleIndex: index) {
            // Float keeps ±1.5; integers clip to full scale, on the same side.
            let expected = kind.encoding.isFloatingPoint ? signal[index] : (signal[index] > 0 ? kind.encoding.fullScale : -1)
            #expect(abs(samples[index] - expected) <= kind.encoding.tolerance, "sample \(index): \(samples[index])")
        }
    }

    @Test("a WAV file that may pass 4 GiB is RF64, made plain WAV again when it stays under; a smaller one is WAV from the start")
    func largeWAVFilesAreRF64() throws {
        let folder = try TemporaryFolder()
        let fourGiB = Int(UInt32.max) / 4
        for (name, mostFrames, isRF64) in [("small.wav", 44_100, false), ("large.wav", fourGiB + 1, true), ("unknown.wav", nil, false)] {
            let writer = try AudioFileWriter(
                path: FilePath(folder.file(name)), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 2, mostFrames: mostFrames)
            #expect(writer.writesRF64 == isRF64, "\(name)")
            try writer.write(TestSignal.sine())
            try writer.finish()
            let head = Array(try #require(FileHandle(forReadingAtPath: folder.file(name))).readData(ofLength: 4))
            #expect(head == Array("RIFF".utf8), "\(name): \(head)")
            #expect(try AudioFileReader(path: FilePath(folder.file(name))).frameCount == TestSignal.frames, "\(name)")
        }
    }

    @Test(arguments: FileKind.integer)
    func clippingNeverWraps(kind: FileKind) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("clip.\(kind.format.fileExtension)")
        let writer = try AudioFileWriter(path: FilePath(path), format: kind.format, encoding: kind.encoding, sampleRate: 44_100, channels: 1)
        let overs: [Float] = [1.5, -1.5, 1.0, -1.0, 3.0, -3.0, 1_000, -1_000]
        try writer.write(overs)
        try writer.finish()
        let samples = try AudioFileReader(path: FilePath(path)).readAll()
        try #require(samples.count == overs.count)
        for (written, read) in zip(overs, samples) {
            let expected = written > 0 ? kind.encoding.fullScale : -1
            #expect(abs(read - expected) <= kind.encoding.tolerance, "\(written) read back as \(read)")
        }
    }

    @Test func writesInBlocksAndCountsFrames() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("blocks.flac")
        let writer = try AudioFileWriter(path: FilePath(path), format: .flac, encoding: .pcm24, sampleRate: 44_100, channels: 2)
        let signal = TestSignal.sine()
        for start in stride(from: 0, to: signal.count, by: 1_000) {
            try writer.write(Array(signal[start..<min(start + 1_000, signal.count)]))
        }
        try writer.write([])
        try writer.finish()
        let reader = try AudioFileReader(path: FilePath(path))
        #expect(reader.frameCount == TestSignal.frames)
        #expect(reader.sampleRate == 44_100)
        let samples = try reader.readAll()
        #expect(zip(samples, signal).allSatisfy { abs($0 - $1) <= SampleEncoding.pcm24.tolerance })
    }

    /// Opus is the exception: a stream without one audio packet is read by nothing, so it gets one silent frame.
    @Test func anEmptyRenderIsAValidFile() throws {
        let folder = try TemporaryFolder()
        for format in AudioFileFormat.fileFormats {
            let path = folder.file("empty.\(format.fileExtension)")
            try AudioFileWriter(path: FilePath(path), format: format, encoding: .pcm16, sampleRate: 24_000, channels: 1).finish()
            let reader = try AudioFileReader(path: FilePath(path))
            let frames = format == .opus ? 1 : 0
            #expect(reader.frameCount == frames, "\(format)")
            let samples = try reader.readAll()
            #expect(samples.count == frames && TestSignal.peak(samples) < 1e-6, "\(format): \(samples)")
        }
    }
}
