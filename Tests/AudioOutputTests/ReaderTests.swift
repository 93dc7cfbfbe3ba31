import Foundation
import SystemPackage
import Testing

@testable import AudioOutput

struct ReaderTests {
    @Test func aMissingFileIsNamed() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("nothing.wav")
        let error = try #require(throws: AudioFileError.self) { try AudioFileReader(path: FilePath(path)) }
        #expect(error == .cannotOpen(path: FilePath(path), cause: .system(errno: ENOENT)))
        #expect(error.description == "\(path): cannot open the file: no such file or directory")
    }

    @Test func aFileThatIsNotAudioIsSaidToBeSo() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.wav")
        try Data("MThd this is a MIDI file really".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: AudioFileError.self) { try AudioFileReader(path: FilePath(path)) }
        guard case .notAnAudioFile(FilePath(path), _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(error.description.hasPrefix("\(path): not an audio file"))
    }

    @Test func aFolderIsNotAnAudioFile() throws {
        let folder = try TemporaryFolder()
        #expect(throws: AudioFileError.cannotOpen(path: FilePath(folder.path), cause: .system(errno: EISDIR))) {
            try AudioFileReader(path: FilePath(folder.path))
        }
    }

    @Test func readsInBlocksOfWholeFrames() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("float.wav")
        let signal = TestSignal.sine(frames: 1_000)
        let writer = try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .float32, sampleRate: 48_000, channels: 2)
        try writer.write(signal)
        try writer.finish()

        let reader = try AudioFileReader(path: FilePath(path))
        var buffer = [Float](repeating: 0, count: 301) // 150 frames and one sample that is not a frame
        var samples: [Float] = []
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { (buffer) throws(AudioFileError) in try reader.read(into: buffer) }
            if frames == 0 { break }
            #expect(frames <= 150)
            samples += buffer[..<(frames * 2)]
        }
        #expect(samples == signal)
    }

    @Test func anEmptyFlacReadsAsEmpty() throws {
        // FLAC's "0 samples" means "length unknown": the reader counts instead.
        let folder = try TemporaryFolder()
        let path = folder.file("empty.flac")
        try AudioFileWriter(path: FilePath(path), format: .flac, encoding: .pcm24, sampleRate: 44_100, channels: 2).finish()
        let reader = try AudioFileReader(path: FilePath(path))
        #expect(reader.format == .flac)
        #expect(reader.encoding == .pcm24)
        #expect(reader.frameCount == 0)
    }
}
