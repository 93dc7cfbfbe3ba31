import Foundation
import SystemPackage
import Testing

@testable import AudioOutput

/// The output appears whole or not at all.
struct AtomicOutputTests {
    @Test func theFileAppearsOnlyOnFinish() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.wav")
        let writer = try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 2)
        try writer.write(TestSignal.sine())
        #expect(!FileManager.default.fileExists(atPath: path))
        // Hidden, so that a batch renderer scanning the folder skips it.
        let during = try folder.contents()
        #expect(during.count == 1)
        #expect(during.first?.hasPrefix(".song.wav.part-\(getpid())-") == true)
        #expect(folder.filePath(during[0]) == writer.temporaryPath)

        try writer.finish()
        #expect(try folder.contents() == ["song.wav"])
        #expect(try AudioFileReader(path: FilePath(path)).frameCount == TestSignal.frames)
    }

    @Test(arguments: AudioFileFormat.fileFormats)
    func aDroppedWriterLeavesNothing(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try AudioFileWriter(
                path: FilePath(folder.file("song.\(format.fileExtension)")), format: format, encoding: .pcm16, sampleRate: 48_000, channels: 2)
            try writer.write(TestSignal.sine())
            #expect(try folder.contents().count == 1)
        }
        #expect(try folder.contents().isEmpty)
    }

    @Test func anOlderFileStaysUntilTheNewOneIsComplete() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.flac")
        let old = try AudioFileWriter(path: FilePath(path), format: .flac, encoding: .pcm16, sampleRate: 22_050, channels: 1)
        try old.write([Float](repeating: 0.25, count: 100))
        try old.finish()

        do {
            // Cancelled: the old file is untouched.
            let cancelled = try AudioFileWriter(path: FilePath(path), format: .flac, encoding: .pcm24, sampleRate: 48_000, channels: 2)
            try cancelled.write(TestSignal.sine())
        }
        #expect(try AudioFileReader(path: FilePath(path)).frameCount == 100)

        let new = try AudioFileWriter(path: FilePath(path), format: .flac, encoding: .pcm24, sampleRate: 48_000, channels: 2)
        try new.write(TestSignal.sine())
        #expect(try AudioFileReader(path: FilePath(path)).sampleRate == 22_050)
        try new.finish()
        let reader = try AudioFileReader(path: FilePath(path))
        #expect(reader.sampleRate == 48_000)
        #expect(reader.encoding == .pcm24)
        #expect(try folder.contents() == ["song.flac"])
    }

    @Test func twoWritersOfOneOutputDoNotCollide() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.wav")
        let first = try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 1)
        let second = try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 1)
        #expect(first.temporaryPath != second.temporaryPath)
        try first.write([0.5])
        try second.write([0.5, 0.5])
        try first.finish()
        try second.finish()
        #expect(try AudioFileReader(path: FilePath(path)).frameCount == 2)
        #expect(try folder.contents() == ["song.wav"])
    }

    @Test func aVeryLongNameStillGetsATemporaryFile() throws {
        let folder = try TemporaryFolder()
        let name = String(repeating: "é", count: 122) + ".wav" // 248 bytes: NAME_MAX leaves no room for the suffix
        let writer = try AudioFileWriter(path: FilePath(folder.file(name)), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 1)
        try writer.write([0.1, 0.2])
        try writer.finish()
        #expect(try folder.contents() == [name])
    }

    @Test func aMissingFolderIsNamed() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("missing/deeper/song.wav")
        let error = try #require(throws: AudioFileError.self) {
            try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 2)
        }
        #expect(error == .cannotCreate(path: FilePath(path), cause: .folderMissing(FilePath(folder.file("missing/deeper")))))
        #expect(error.description == "\(path): cannot create the file: the folder \(folder.file("missing/deeper")) does not exist")
        #expect(try folder.contents().isEmpty)
    }

    @Test func aFileUsedAsAFolderIsNamed() throws {
        // Tests run as root, which ignores permissions: a file where a folder should be fails for everyone.
        let folder = try TemporaryFolder()
        let file = folder.file("notes.txt")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        let path = file + "/sub/song.ogg"
        let error = try #require(throws: AudioFileError.self) {
            try AudioFileWriter(path: FilePath(path), format: .ogg, encoding: .pcm16, sampleRate: 44_100, channels: 2)
        }
        #expect(error == .cannotCreate(path: FilePath(path), cause: .notAFolder(FilePath(file))))
        #expect(error.description == "\(path): cannot create the file: \(file) is not a folder")
        #expect(try folder.contents() == ["notes.txt"])
    }

    @Test func aFolderInTheWayIsRefusedBeforeRendering() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("song.wav")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = try #require(throws: AudioFileError.self) {
            try AudioFileWriter(path: FilePath(path), format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 2)
        }
        #expect(error == .cannotCreate(path: FilePath(path), cause: .system(errno: EISDIR)))
        #expect(error.description.hasPrefix("\(path): cannot create the file: "))
        #expect(try folder.contents() == ["song.wav"])
    }
}
