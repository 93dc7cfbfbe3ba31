import AudioOutput
import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay render` to MP3, Opus and FLAC, read back by ffprobe and ffmpeg, which share no code
/// with libsndfile, LAME's and libopus's file code or TagLib: the length, the level and the tags
/// a player finds, each against the same song rendered to WAV.
@Suite("smfplay render: MP3, Opus and FLAC as ffmpeg reads them")
struct RenderEncodedFormatTests {
    /// A title longer than an ID3v1 tag's 30 bytes (it is 57 in UTF-8): read back whole, it came
    /// from the ID3v2 tag.
    static let info: [RMIDInfo.Field: String] = [
        .title: "ショパン 夜想曲 第2番 変ホ長調 作品9の2", .artist: "Frédéric Chopin", .album: "Nocturnes", .genre: "Classical",
        .date: "1835", .comment: "雨だれ, a comment", .copyright: "public domain",
    ]

    /// One codec frame, in seconds: what a duration may differ by, twice.
    static func frameSeconds(_ format: AudioFileFormat) -> Double {
        switch format {
        case .mp3: 1152.0 / 44_100
        case .opus: 960.0 / 48_000
        default: 0.001
        }
    }

    init() throws {
        try Fixtures.requireSoundFont()
        try FFmpegReader.require()
    }

    @Test("as long as the WAV render within two frames, as loud within 1 dB; Opus at 48 kHz", arguments: [AudioFileFormat.mp3, .opus, .flac])
    func soundsAsTheWAVRender(format: AudioFileFormat) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 8))
        let output = "song.\(format.fileExtension)"
        for name in ["song.wav", output] {
            let result = try sandbox.run(["render", "song.mid", "-o", name, "-q"] + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
        }
        let reference = try FFmpegReader.probe(sandbox.path("song.wav"))
        let probe = try FFmpegReader.probe(sandbox.path(output))
        #expect(abs(probe.duration - reference.duration) <= 2 * Self.frameSeconds(format), "\(probe.duration) s against \(reference.duration) s")
        #expect(probe.sampleRate == (format == .opus ? 48_000 : 44_100), "\(probe)")
        if format == .opus { #expect(try AudioFacts(path: sandbox.path(output)).sampleRate == 48_000, "made at 48 kHz, not decoded so") }

        let level = FFmpegReader.rmsDecibels(try FFmpegReader.decode(sandbox.path(output)))
        let referenceLevel = FFmpegReader.rmsDecibels(try FFmpegReader.decode(sandbox.path("song.wav")))
        #expect(referenceLevel > -60, "the song should be heard (it is about -45 dBFS): \(referenceLevel) dBFS")
        #expect(abs(level - referenceLevel) <= 1, "\(level) dBFS against the WAV's \(referenceLevel) dBFS")
    }

    @Test("every text of an RMID file, in UTF-8: MP3's in an ID3v2 tag", arguments: [AudioFileFormat.mp3, .opus, .flac, .aiff])
    func tags(format: AudioFileFormat) throws {
        let sandbox = try Sandbox()
        let rmid = RMIDWriter(texts: Self.info.mapValues { Array($0.utf8) }, textEncoding: "utf-8")
        try sandbox.write("Nocturne.rmi", rmid.encode(song: Fixtures.song(beats: 1, title: "Track name")))
        let output = "Nocturne.\(format.fileExtension)"
        let result = try sandbox.run(["render", "Nocturne.rmi", "-o", output, "-q"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")

        let tags = try FFmpegReader.probe(sandbox.path(output)).tags
        let expected: [String: String] = [
            "TITLE": Self.info[.title]!, "ARTIST": Self.info[.artist]!, "ALBUM": Self.info[.album]!, "GENRE": Self.info[.genre]!,
            "DATE": Self.info[.date]!, "COMMENT": Self.info[.comment]!, "COPYRIGHT": Self.info[.copyright]!,
        ]
        for (name, value) in expected { #expect(tags[name] == value, "\(name) in \(tags)") }
        if format == .mp3 {
            // "ID3", version 2.4: the tag TagLib writes at the start, where libsndfile writes none.
            #expect(Array(try sandbox.contents(output).prefix(4)) == Array("ID3".utf8) + [4])
        }
    }

    @Test("--quality: a higher one makes a larger file, and both decode", arguments: [AudioFileFormat.mp3, .opus, .ogg, .flac])
    func quality(format: AudioFileFormat) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 8))
        var sizes: [Int] = []
        for quality in ["2", "9"] {
            let output = "q\(quality).\(format.fileExtension)"
            let result = try sandbox.run(["render", "song.mid", "-o", output, "--quality", quality, "-q"] + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
            sizes.append(try sandbox.contents(output).count)
            #expect(FFmpegReader.rmsDecibels(try FFmpegReader.decode(sandbox.path(output))) > -60, "\(output) decodes to sound")
        }
        #expect(sizes[1] > sizes[0], "quality 9: \(sizes[1]) bytes, quality 2: \(sizes[0])")
    }

    /// Ogg's serial number is random, so the files are compared by size: the same encoder settings
    /// make pages of the same sizes.
    @Test("without --quality, MP3 is made at 8 (LAME's -V 2) and Ogg Vorbis at 6", arguments: [(AudioFileFormat.mp3, "8"), (.ogg, "6")])
    func defaultQuality(format: AudioFileFormat, quality: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Fixtures.song(beats: 8))
        var sizes: [Int] = []
        for options in [[], ["--quality", quality], ["--quality", "3"]] {
            let output = "q\(sizes.count).\(format.fileExtension)"
            let result = try sandbox.run(["render", "song.mid", "-o", output, "-q"] + options + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
            sizes.append(try sandbox.contents(output).count)
        }
        #expect(sizes[0] == sizes[1], "no --quality: \(sizes[0]) bytes, --quality \(quality): \(sizes[1])")
        #expect(sizes[2] != sizes[0], "--quality 3 changes nothing: \(sizes)")
    }
}
