import AudioOutput
import Foundation
import Loudness
import Playback
import SMF
import Synthesis
import SystemPackage
import Testing

/// One kind of output file: a format and the encoding asked for.
struct FileKind: CustomStringConvertible, Sendable {
    let format: AudioFileFormat
    let encoding: SampleEncoding

    var description: String { format.storesSampleEncoding ? "\(format.rawValue) \(encoding.bitsOption)" : format.rawValue }

    /// Every combination smfplay writes (the lossy formats once: they ignore the encoding).
    static let all: [FileKind] = AudioFileFormat.fileFormats.flatMap { format in
        format.storesSampleEncoding
            ? format.supportedEncodings.map { FileKind(format: format, encoding: $0) }
            : [FileKind(format: format, encoding: .pcm16)]
    }

    /// The lossless combinations: lossy coding moves a peak by more than 0.05 dB.
    static let lossless = all.filter(\.format.storesSampleEncoding)

    static let floatWAV = FileKind(format: .wav, encoding: .float32)

    /// The encoding the file reads back as: none for the lossy formats, which have no bit depth.
    var expectedEncoding: SampleEncoding? { format.storesSampleEncoding ? encoding : nil }
}

/// Renders songs built in code with `SongRenderer` at the default settings (gain, reverb, chorus,
/// TimGM6mb) and reads the files back with `AudioFileReader`.
struct SongRendererTests {
    /// How far a length may be from the one expected.
    static let lengthTolerance = 0.010

    /// A render and what reading it back found.
    struct Rendered {
        let result: RenderResult
        let path: String
        let format: AudioFileFormat?
        let encoding: SampleEncoding?
        let sampleRate: Int
        let channels: Int
        let frames: Int
        /// Interleaved stereo.
        let samples: [Float]

        var seconds: Double { Double(frames) / Double(sampleRate) }

        /// The samples of the frames from `start` to `end` seconds (to the end of the file when nil).
        func samples(from start: Double, to end: Double? = nil) -> ArraySlice<Float> {
            let first = min(frames, Int((start * Double(sampleRate)).rounded()))
            let last = end.map { min(frames, Int(($0 * Double(sampleRate)).rounded())) } ?? frames
            return samples[(2 * first)..<(2 * max(first, last))]
        }
    }

    static func renderer(sampleRate: Int = 44_100, gain: Double = DefaultRender.gain) throws -> SongRenderer {
        var settings = DefaultRender.settings(sampleRate: Double(sampleRate))
        settings.gain = gain
        return SongRenderer(synthesizer: try Synthesizer(settings: settings, soundFontPath: try TestSoundFont.required()))
    }

    /// Renders `song` into `folder/song.<extension>` and reads the file back. `tailLimit` nil leaves
    /// `RenderOptions`' default.
    static func render(
        _ song: Song, in folder: TemporaryFolder, kind: FileKind = .floatWAV, tailLimit: Double? = nil,
        normalization: Normalization = .off, limitsPeaks: Bool = true, with renderer: SongRenderer? = nil,
        sampleRate: Int = 44_100
    ) throws -> Rendered {
        var options = RenderOptions(format: kind.format, encoding: kind.encoding, normalization: normalization, limitsPeaks: limitsPeaks)
        if let tailLimit { options.tailLimit = tailLimit }
        let path = folder.file("song.\(kind.format.fileExtension)")
        let result = try (renderer ?? Self.renderer(sampleRate: sampleRate)).render(song, to: FilePath(path), options: options)
        let reader = try AudioFileReader(path: FilePath(path))
        let samples = try reader.readAll()
        #expect(
            samples.count == reader.frameCount * reader.channels, "\(kind): the header says \(reader.frameCount) frames, \(samples.count / 2) read")
        return Rendered(
            result: result, path: path, format: reader.format, encoding: reader.encoding, sampleRate: reader.sampleRate,
            channels: reader.channels, frames: reader.frameCount, samples: samples)
    }

    /// Every kind at 44.1 and 48 kHz, where its format takes the rate (Opus only 48).
    static let kindsAndRates = FileKind.all.flatMap { kind in
        [44_100, 48_000].filter(kind.format.supportedSampleRates.contains).map { (kind, $0) }
    }

    @Test(arguments: kindsAndRates)
    func fileHoldsWhatWasAskedForAndTheSongWithoutTail(kind: FileKind, sampleRate: Int) throws {
        let folder = try TemporaryFolder()
        let song = TestSongs.melody
        let rendered = try Self.render(song, in: folder, kind: kind, tailLimit: 0, sampleRate: sampleRate)
        #expect(rendered.format == kind.format)
        #expect(rendered.encoding == kind.expectedEncoding)
        #expect(rendered.channels == 2)
        #expect(rendered.sampleRate == sampleRate)
        #expect(
            abs(rendered.seconds - song.duration) <= Self.lengthTolerance, "\(kind): \(rendered.seconds) s of audio for a \(song.duration) s song")
        #expect(rendered.result.songSeconds == song.duration)
        #expect(abs(rendered.result.audioSeconds - rendered.seconds) <= Self.lengthTolerance)
        let level = Level.rms(rendered.samples(from: 0, to: TestSongs.notesEnd))
        #expect(level > Level.linear(decibels: -40), "\(kind): the notes play at \(Level.decibels(level)) dBFS RMS")
        #expect(Level.peak(rendered.samples[...]) < 1, "\(kind): clipped at the default gain")
    }

    @Test(arguments: [44_100, 48_000])
    func defaultTailRingsOnThenEndsQuiet(sampleRate: Int) throws {
        #expect(RenderOptions(format: .wav, encoding: .float32).tailLimit == 10)
        let folder = try TemporaryFolder()
        let song = TestSongs.stringsNote
        let rendered = try Self.render(song, in: folder, sampleRate: sampleRate)
        #expect(rendered.seconds > song.duration, "no tail: \(rendered.seconds) s of audio for a \(song.duration) s song")
        #expect(rendered.seconds <= song.duration + 10 + Self.lengthTolerance, "\(rendered.seconds) s of audio for a \(song.duration) s song")
        #expect(abs(rendered.result.audioSeconds - rendered.seconds) <= Self.lengthTolerance)
        // The release and the reverb are still audible when the song ends: there is a tail to render…
        let afterEnd = Level.rms(rendered.samples(from: song.duration, to: song.duration + AudioMeasurement.windowSeconds))
        #expect(afterEnd > Level.linear(decibels: -60), "the song ends at \(Level.decibels(afterEnd)) dBFS RMS")
        // …and it ends only once they have died away…
        let lastPeak = Level.peak(rendered.samples(from: rendered.seconds - AudioMeasurement.windowSeconds))
        #expect(lastPeak < Level.linear(decibels: -60), "the last 50 ms peak at \(Level.decibels(lastPeak)) dBFS")
        // …but soon after the output stays below −90 dBFS: not seconds of silence. The renderer
        // listens in blocks of 4096 frames (93 ms); a few blocks are allowed.
        let silentEnd = rendered.seconds - (try AudioMeasurement(path: rendered.path).audibleSeconds)
        #expect(silentEnd <= 0.25, "the file ends with \(silentEnd) s below −90 dBFS")
    }

    /// A held organ never dies away, so the tail runs to its cap; nil is `RenderOptions`' default cap.
    @Test(arguments: [nil, 1.5] as [Double?])
    func unreleasedNoteRunsTheTailToItsCap(tailLimit: Double?) throws {
        let folder = try TemporaryFolder()
        let song = TestSongs.heldOrgan
        let rendered = try Self.render(song, in: folder, tailLimit: tailLimit)
        let expected = song.duration + (tailLimit ?? 10)
        #expect(abs(rendered.seconds - expected) <= Self.lengthTolerance, "\(rendered.seconds) s of audio, expected \(expected) s")
        let lastLevel = Level.rms(rendered.samples(from: rendered.seconds - AudioMeasurement.windowSeconds))
        #expect(lastLevel > Level.linear(decibels: -40), "the organ has faded to \(Level.decibels(lastLevel)) dBFS RMS")
    }

    /// At the default gain (quiet: the peak is well below −1 dBFS) and at a gain so loud that the
    /// synthesizer's output goes beyond full scale, which the float intermediate file keeps (the
    /// limiter off: with it, nothing goes beyond −1 dBFS to be scaled down).
    @Test(arguments: FileKind.lossless, [DefaultRender.gain, 4])
    func normalizePutsThePeakAtMinusOneDecibel(kind: FileKind, gain: Double) throws {
        let folder = try TemporaryFolder()
        let rendered = try Self.render(
            TestSongs.melody, in: folder, kind: kind, normalization: .peak, limitsPeaks: false,
            with: try Self.renderer(gain: gain))
        let peak = Level.decibels(Level.peak(rendered.samples[...]))
        #expect(abs(peak + 1) <= 0.05, "\(kind) at gain \(gain): peak at \(peak) dBFS")
        let synthesized = rendered.result.peak
        #expect(gain == DefaultRender.gain ? synthesized < 0.891 : synthesized > 1, "\(kind) at gain \(gain): synthesized peak \(synthesized)")
        #expect(abs(rendered.result.normalizationGain * synthesized - 0.891) < 0.001)
        #expect(try folder.contents() == ["song.\(kind.format.fileExtension)"], "the intermediate float render is left behind")
    }

    /// Outputs that cannot be created, for root too.
    enum UnwritableOutput: String, CaseIterable, CustomStringConvertible {
        case missingFolder
        /// A path through a regular file, as if it were a folder.
        case fileAsFolder
        /// The output's name is taken by a folder.
        case nameTakenByFolder
        /// sysfs refuses to create files, even for root.
        case systemFolder

        var description: String { rawValue }

        /// Sets the case up in `folder`; returns the output path and the folder to look into afterwards.
        func prepare(in folder: TemporaryFolder) throws -> (output: String, watched: String) {
            switch self {
            case .missingFolder:
                return (folder.file("missing/song.wav"), folder.path)
            case .fileAsFolder:
                try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder.file("file.txt")))
                return (folder.file("file.txt/song.wav"), folder.path)
            case .nameTakenByFolder:
                try FileManager.default.createDirectory(atPath: folder.file("song.wav"), withIntermediateDirectories: false)
                return (folder.file("song.wav"), folder.path)
            case .systemFolder:
                var isFolder: ObjCBool = false
                try #require(FileManager.default.fileExists(atPath: "/sys", isDirectory: &isFolder) && isFolder.boolValue, "/sys is not mounted")
                return ("/sys/smfplay-test-song.wav", "/sys")
            }
        }
    }

    @Test(arguments: UnwritableOutput.allCases, [Normalization.off, .peak, .loudness(LoudnessTarget(referenceGain: DefaultRender.gain))])
    func unwritableOutputThrowsAndLeavesNothing(output: UnwritableOutput, normalization: Normalization) throws {
        let folder = try TemporaryFolder()
        let (path, watched) = try output.prepare(in: folder)
        let before = try FileManager.default.contentsOfDirectory(atPath: watched).sorted()
        let renderer = try Self.renderer()
        #expect(throws: RenderError.self, "\(output), \(normalization)") {
            try renderer.render(
                TestSongs.melody, to: FilePath(path), options: RenderOptions(format: .wav, encoding: .pcm16, normalization: normalization))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: watched).sorted() == before, "\(output): files left in \(watched)")
        if output == .nameTakenByFolder {
            #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty, "files left in the folder named like the output")
        }
    }

    /// What a renderer rendered before the song under test.
    enum PreviousSong: String, CaseIterable, CustomStringConvertible {
        /// A note released in time, its tail rendered until silent. It leaves FluidSynth part way into
        /// one of its 64-frame blocks and its chorus part way through its modulation.
        case releasedNote
        /// A note never released, cut by the tail's cap: it still sounds when the song ends.
        case noteCutByTailCap

        var description: String { rawValue }

        func render(with renderer: SongRenderer) throws {
            switch self {
            case .releasedNote: _ = try SongRendererTests.render(TestSongs.stringsNote, in: try TemporaryFolder(), with: renderer)
            case .noteCutByTailCap: _ = try SongRendererTests.render(TestSongs.heldOrgan, in: try TemporaryFolder(), tailLimit: 0.5, with: renderer)
            }
        }
    }

    /// `smfplay render DIR` renders many songs with one renderer per worker: a song's audio must not
    /// depend on what that renderer rendered before.
    @Test(arguments: PreviousSong.allCases)
    func songRendersTheSameAfterAnotherSong(previous: PreviousSong) throws {
        let alone = try Self.render(TestSongs.melody, in: try TemporaryFolder())
        let renderer = try Self.renderer()
        try previous.render(with: renderer)
        let second = try Self.render(TestSongs.melody, in: try TemporaryFolder(), with: renderer)
        #expect(second.result == alone.result, "after \(previous)")
        try #require(second.frames == alone.frames, "\(second.frames) frames after \(previous), \(alone.frames) alone")
        let difference = zip(second.samples, alone.samples).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
        #expect(
            difference <= Level.linear(decibels: -80),
            "rendered after \(previous), the samples differ by up to \(Level.decibels(difference)) dBFS from the song rendered alone")
    }
}
