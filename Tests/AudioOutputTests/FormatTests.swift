import Glibc
import SystemPackage
import Testing

@testable import AudioOutput

struct FormatTests {
    @Test func formatsComeFromExtensionsInAnyCase() {
        #expect(AudioFileFormat(fileExtension: "wav") == .wav)
        #expect(AudioFileFormat(fileExtension: ".WAV") == .wav)
        #expect(AudioFileFormat(fileExtension: "Flac") == .flac)
        #expect(AudioFileFormat(fileExtension: "ogg") == .ogg)
        #expect(AudioFileFormat(fileExtension: "oga") == .ogg)
        #expect(AudioFileFormat(fileExtension: "aiff") == .aiff)
        #expect(AudioFileFormat(fileExtension: ".AIF") == .aiff)
        #expect(AudioFileFormat(fileExtension: "MP3") == .mp3)
        #expect(AudioFileFormat(fileExtension: ".opus") == .opus)
        #expect(AudioFileFormat(fileExtension: "wma") == nil)
        #expect(AudioFileFormat(fileExtension: "") == nil)
    }

    @Test func formatsComeFromPaths() {
        #expect(AudioFileFormat(path: "out/Song.Name.FLAC") == .flac)
        #expect(AudioFileFormat(path: "/tmp/a.b/song.aif") == .aiff)
        #expect(AudioFileFormat(path: "song") == nil)
        #expect(AudioFileFormat(path: "folder.wav/song") == nil)
        #expect(AudioFileFormat(path: ".wav") == nil)
    }

    @Test func bitsOptionsParse() {
        #expect(SampleEncoding(bits: "16") == .pcm16)
        #expect(SampleEncoding(bits: "24") == .pcm24)
        #expect(SampleEncoding(bits: "32f") == .float32)
        #expect(SampleEncoding(bits: "32F") == .float32)
        #expect(SampleEncoding(bits: "32") == nil)
        #expect(SampleEncoding(bits: "8") == nil)
        #expect(SampleEncoding.allCases.map(\.bitsPerSample) == [16, 24, 32])
    }

    @Test func flacRefusesFloatSamples() {
        #expect(throws: AudioFileError.unsupportedEncoding(path: "out.flac", format: .flac, encoding: .float32)) {
            try AudioFileFormat.flac.validate(encoding: .float32, sampleRate: 44_100, channels: 2, path: "out.flac")
        }
        let error = AudioFileError.unsupportedEncoding(path: "out.flac", format: .flac, encoding: .float32)
        #expect(error.description == "out.flac: flac cannot store 32-bit float samples; use --bits 16 or 24")
    }

    @Test func flacRefusesFloatBeforeAnyFileIsCreated() throws {
        let folder = try TemporaryFolder()
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: FilePath(folder.file("out.flac")), format: .flac, encoding: .float32, sampleRate: 44_100, channels: 2)
        }
        #expect(try folder.contents().isEmpty)
    }

    @Test("one list of formats: AIFF only to files, raw samples only to pipes and never by extension")
    func filesAndPipes() {
        #expect(AudioFileFormat.fileFormats == [.wav, .flac, .ogg, .mp3, .opus, .aiff])
        #expect(AudioFileFormat.streamFormats == [.wav, .flac, .ogg, .mp3, .opus, .raw])
        #expect(AudioFileFormat(name: "RAW") == .raw)
        #expect(AudioFileFormat(name: "aif") == nil)
        #expect(AudioFileFormat(fileExtension: "raw") == nil)
    }

    @Test(arguments: [AudioFileFormat.ogg, .mp3, .opus])
    func lossyFormatsAcceptAndIgnoreEveryEncoding(format: AudioFileFormat) throws {
        for encoding in SampleEncoding.allCases {
            try format.validate(encoding: encoding, sampleRate: 48_000, channels: 2, path: "out")
        }
        #expect(!format.storesSampleEncoding)
    }

    @Test func sampleRatesAreCheckedPerFormat() throws {
        for format in AudioFileFormat.allCases where format != .mp3 && format != .opus {
            for rate in [8_000, 22_050, 44_100, 48_000, 96_000, 192_000] {
                try format.validate(encoding: .pcm16, sampleRate: rate, channels: 2, path: "x")
            }
            #expect(throws: AudioFileError.self) { try format.validate(encoding: .pcm16, sampleRate: 0, channels: 2, path: "x") }
        }
        #expect(throws: AudioFileError.unsupportedSampleRate(path: "x.flac", format: .flac, sampleRate: 700_000)) {
            try AudioFileFormat.flac.validate(encoding: .pcm16, sampleRate: 700_000, channels: 2, path: "x.flac")
        }
        #expect(throws: AudioFileError.unsupportedSampleRate(path: "x.ogg", format: .ogg, sampleRate: 256_000)) {
            try AudioFileFormat.ogg.validate(encoding: .pcm16, sampleRate: 256_000, channels: 2, path: "x.ogg")
        }
        let error = AudioFileError.unsupportedSampleRate(path: "x.ogg", format: .ogg, sampleRate: 256_000)
        #expect(error.description == "x.ogg: ogg cannot store a sample rate of 256000 Hz; use 1–200000 Hz")
    }

    @Test("MP3 and Opus take a few rates; a render whose rate no one asked for takes the format's own")
    func mp3AndOpusTakeAFewRates() throws {
        for rate in [8_000, 11_025, 22_050, 32_000, 44_100, 48_000] {
            try AudioFileFormat.mp3.validate(encoding: .pcm16, sampleRate: rate, channels: 2, path: "x.mp3")
        }
        for rate in [8_000, 12_000, 16_000, 24_000, 48_000] {
            try AudioFileFormat.opus.validate(encoding: .pcm16, sampleRate: rate, channels: 2, path: "x.opus")
        }
        #expect(throws: AudioFileError.unsupportedSampleRate(path: "x.mp3", format: .mp3, sampleRate: 96_000)) {
            try AudioFileFormat.mp3.validate(encoding: .pcm16, sampleRate: 96_000, channels: 2, path: "x.mp3")
        }
        let error = try #require(throws: AudioFileError.self) {
            try AudioFileFormat.opus.validate(encoding: .pcm16, sampleRate: 44_100, channels: 2, path: "x.opus")
        }
        #expect(error.description == "x.opus: opus cannot store a sample rate of 44100 Hz; use 8000, 12000, 16000, 24000 or 48000 Hz")
        #expect(AudioFileFormat.opus.supportedSampleRates.rate(inPlaceOf: 44_100) == 48_000)
        #expect(AudioFileFormat.opus.supportedSampleRates.rate(inPlaceOf: 24_000) == 24_000)
        #expect(AudioFileFormat.mp3.supportedSampleRates.rate(inPlaceOf: 96_000) == 44_100)
        #expect(AudioFileFormat.mp3.supportedSampleRates.rate(inPlaceOf: 22_050) == 22_050)
        #expect(AudioFileFormat.flac.supportedSampleRates.rate(inPlaceOf: 96_000) == 96_000)
    }

    @Test func qualityIsFromZeroToTenAndLibsndfilesLevelIsItsComplement() {
        #expect(EncodingQuality(-0.1) == nil)
        #expect(EncodingQuality(10.5) == nil)
        #expect(EncodingQuality(0)?.compressionLevel == 1)
        #expect(EncodingQuality(10)?.compressionLevel == 0)
        #expect(EncodingQuality(8)?.compressionLevel == 1 - 0.8)
        #expect(AudioFileFormat.allCases.filter(\.takesQuality) == [.flac, .ogg, .mp3, .opus])
        #expect(AudioFileFormat.ogg.defaultQuality == EncodingQuality(6))
        #expect(AudioFileFormat.mp3.defaultQuality == EncodingQuality(8))
    }

    @Test func channelCountsAreCheckedPerFormat() {
        #expect(throws: AudioFileError.unsupportedChannelCount(path: "x.mp3", format: .mp3, channels: 3)) {
            try AudioFileFormat.mp3.validate(encoding: .pcm16, sampleRate: 48_000, channels: 3, path: "x.mp3")
        }
        #expect(throws: AudioFileError.unsupportedChannelCount(path: "x.flac", format: .flac, channels: 9)) {
            try AudioFileFormat.flac.validate(encoding: .pcm24, sampleRate: 48_000, channels: 9, path: "x.flac")
        }
        #expect(throws: AudioFileError.self) {
            try AudioFileFormat.wav.validate(encoding: .pcm24, sampleRate: 48_000, channels: 0, path: "x.wav")
        }
    }

    @Test func messagesNameTheFileAndSayDiskFull() {
        #expect(
            AudioFileError.writeFailed(path: "out/song.wav", cause: .system(errno: ENOSPC)).description
                == "out/song.wav: cannot write the file: disk full (no space left on device)")
        #expect(
            AudioFileError.cannotCreate(path: "a/b.wav", cause: .folderMissing("a")).description
                == "a/b.wav: cannot create the file: the folder a does not exist")
        #expect(
            AudioFileError.cannotCreate(path: "a/b.wav", cause: .system(errno: EACCES)).description
                == "a/b.wav: cannot create the file: permission denied")
        #expect(AudioFileError.unknownFormat(path: "song.mp3").description.hasPrefix("song.mp3: "))
        #expect(AudioFileError.Cause.library(tidying: "System error : No space left on device.") == .library("no space left on device"))
    }
}
