import Foundation
import SystemPackage
import Testing

@testable import AudioOutput

/// ReplayGain values given to `finish(replayGain:)`, written by TagLib and read back by ffprobe,
/// which shares no code with it: where each format keeps them, and where it does not.
struct ReplayGainTests {
    static let gain = ReplayGain(trackGain: -3.21, trackPeak: 0.912_345, albumGain: -4.5, albumPeak: 0.987_654)

    /// What ffprobe finds of ``gain`` in each format (its tag names in upper case).
    static func expected(in format: AudioFileFormat) -> [String: String] {
        switch format {
        case .mp3, .flac, .ogg, .aiff:
            [
                "REPLAYGAIN_TRACK_GAIN": "-3.21 dB", "REPLAYGAIN_TRACK_PEAK": "0.912345", "REPLAYGAIN_ALBUM_GAIN": "-4.50 dB",
                "REPLAYGAIN_ALBUM_PEAK": "0.987654",
            ]
        // RFC 7845: Q7.8 relative to −23 LUFS, 5 dB below ReplayGain's reference: (−3.21 − 5) × 256 = −2101.76.
        case .opus: ["R128_TRACK_GAIN": "-2102", "R128_ALBUM_GAIN": "-2432"]
        case .wav, .raw: [:]
        }
    }

    @Test(arguments: AudioFileFormat.fileFormats)
    func eachFormatKeepsWhatItCan(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("gain.\(format.fileExtension)")
        let writer = try AudioFileWriter(
            path: FilePath(path), format: format, encoding: .pcm16, sampleRate: TestSignal.sampleRate, channels: 2,
            tags: AudioFileTags(title: "Gain"))
        try writer.write(TestSignal.sine())
        try writer.finish(replayGain: Self.gain)

        let tags = try FFmpegReader.probe(path).tags
        let found = tags.filter { $0.key.hasPrefix("REPLAYGAIN_") || $0.key.hasPrefix("R128_") }
        #expect(found == Self.expected(in: format), "\(tags)")
        #expect(tags["TITLE"] == "Gain", "the other tags stay: \(tags)")
        // The audio is untouched: libsndfile still reads every frame.
        #expect(try AudioFileReader(path: FilePath(path)).frameCount == TestSignal.frames)
    }

    @Test func gainsAndPeaksAreWrittenAsReplayGainWritesThem() {
        let values = ReplayGain(trackGain: 0.004, trackPeak: 1, albumGain: -0.004, albumPeak: 0.000_000_4).replayGainProperties
        #expect(values.map(\.value) == ["0.00 dB", "1.000000", "0.00 dB", "0.000000"])
        #expect(ReplayGain(trackGain: 12.345, trackPeak: 0.5).replayGainProperties.map(\.value) == ["12.35 dB", "0.500000"])
        #expect(ReplayGain(trackGain: -200, trackPeak: 0.5).r128Properties.map(\.value) == ["-32768"], "held within 16 bits")
        #expect(ReplayGain(trackGain: 5, trackPeak: 0.5).r128Properties.map(\.value) == ["0"], "-18 LUFS is -23 LUFS + 5 dB")
    }

    /// TagLib is given a path that names nothing (the writer's descriptor is elsewhere): it cannot
    /// open the file, and the render fails with nothing left under the output's name.
    @Test func aFileTagLibCannotOpenFailsTheRender() throws {
        let folder = try TemporaryFolder()
        let path = FilePath(folder.file("song.mp3"))
        let fd = open(folder.file("written-here"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let writer = try AudioFileWriter(
            fileDescriptor: fd, temporaryPath: FilePath(folder.file(".song.part-test")), path: path, format: .mp3, encoding: .pcm16,
            sampleRate: 44_100, channels: 2, tags: AudioFileTags(title: "Song"))
        try writer.write(TestSignal.sine())
        let error = try #require(throws: AudioFileError.self) { try writer.finish() }
        #expect(error == .taggingFailed(path: path, cause: .notReadable(.mp3)))
        #expect(error.description == "\(path.string): cannot write the tags: TagLib does not read the file written as MP3")
        #expect(try folder.contents() == ["written-here"])
    }
}
