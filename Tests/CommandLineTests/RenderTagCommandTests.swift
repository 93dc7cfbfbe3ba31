import AudioOutput
import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

/// `smfplay render` writes each song's title, its RMID INFO texts and smfplay's name as the audio
/// file's tags: read back by libsndfile, and by exiftool, which reads every format its own way.
@Suite("smfplay render: tags")
struct RenderTagCommandTests {
    static let info: [RMIDInfo.Field: String] = [
        .title: "夜想曲 第2番", .artist: "Frédéric Chopin", .album: "Nocturnes", .genre: "Classical", .date: "1835",
        .comment: "Op. 9 No. 2", .copyright: "public domain", .engineer: "not a tag",
    ]

    /// `Songs/`: an RMID file (the project's `RMIDWriter`) whose INFO title wins over its track
    /// name, a plain SMF titled by its track name, and one without a title.
    static func songs(in sandbox: Sandbox) throws {
        let rmid = RMIDWriter(texts: info.mapValues { Array($0.utf8) }, textEncoding: "utf-8")
        try sandbox.write("Songs/Nocturne.rmi", rmid.encode(song: Fixtures.song(beats: 1, title: "Track name")))
        try sandbox.write("Songs/Gymnopédie.mid", Fixtures.song(beats: 1, title: "Gymnopédie No.1"))
        try sandbox.write("Songs/Untitled song.mid", Fixtures.song(beats: 1, title: ""))
    }

    /// The tags of the RMID file's render that `format` keeps (see `AudioFileTags`).
    static func nocturneTags(_ format: AudioFileFormat) -> AudioFileTags {
        let kept = AudioFileTags(
            title: info[.title], artist: info[.artist], album: info[.album], genre: info[.genre], date: info[.date], comment: info[.comment],
            copyright: info[.copyright], software: "smfplay 0.1.0")
        guard format == .aiff else { return kept }
        return AudioFileTags(
            title: kept.title, artist: kept.artist, comment: kept.comment, copyright: kept.copyright, software: kept.software)
    }

    /// The file's tags as libsndfile reads them, without the name it adds to the software's.
    static func tags(_ path: String) throws -> AudioFileTags {
        var tags = try AudioFileReader(path: FilePath(path)).tags
        if let software = tags.software, let cut = software.range(of: " (libsndfile") { tags.software = String(software[..<cut.lowerBound]) }
        return tags
    }

    static let exiftool = "/usr/bin/exiftool"

    /// The file's tags as exiftool reads them (its names for them, each value as text); RIFF INFO
    /// texts read as UTF-8, which smfplay writes (exiftool's default is Latin-1).
    static func exiftoolTags(_ path: String) throws -> [String: String] {
        try #require(
            FileManager.default.isExecutableFile(atPath: exiftool), "exiftool is missing: install Debian's libimage-exiftool-perl (make deps)")
        let result = try Command(URL(fileURLWithPath: exiftool), arguments: ["-j", "-charset", "riff=utf8", path], timeLimit: 60).run()
        try #require(result.succeeded, "\(result)")
        let objects = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        return try #require(objects.first).mapValues { "\($0)" }
    }

    @Test(
        "a folder's songs carry their titles (INFO's, the track name, the file name) and the RMID file's INFO", arguments: AudioFileFormat.fileFormats
    )
    func folderRender(format: AudioFileFormat) throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox)
        let result = try sandbox.run(["render", "Songs", "-o", "Rendered", "--format", format.rawValue, "-q"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        let file = { (name: String) in sandbox.path("Rendered/\(name).\(format.fileExtension)") }
        #expect(try Self.tags(file("Nocturne")) == Self.nocturneTags(format))
        #expect(try Self.tags(file("Gymnopédie")) == AudioFileTags(title: "Gymnopédie No.1", software: "smfplay 0.1.0"))
        #expect(try Self.tags(file("Untitled song")) == AudioFileTags(title: "Untitled song", software: "smfplay 0.1.0"))

        // exiftool, on its own: each format's fields where other players look for them.
        let read = try Self.exiftoolTags(file("Nocturne"))
        let expected: [String: String] =
            switch format {
            case .wav:
                [
                    "Title": "夜想曲 第2番", "Artist": "Frédéric Chopin", "Product": "Nocturnes", "Genre": "Classical", "DateCreated": "1835",
                    "Comment": "Op. 9 No. 2", "Copyright": "public domain",
                ]
            case .flac, .ogg:
                [
                    "Title": "夜想曲 第2番", "Artist": "Frédéric Chopin", "Album": "Nocturnes", "Genre": "Classical", "Date": "1835",
                    "Comment": "Op. 9 No. 2", "Copyright": "public domain",
                ]
            // AIFF's texts are ASCII to exiftool, which reads the title's UTF-8 as Mac Roman.
            case .aiff:
                ["Author": "Frédéric Chopin".replacingOccurrences(of: "é", with: "√©"), "Annotation": "Op. 9 No. 2", "Copyright": "public domain"]
            // ID3v2.4's frames, as exiftool names them.
            case .mp3:
                [
                    "Title": "夜想曲 第2番", "Artist": "Frédéric Chopin", "Album": "Nocturnes", "Genre": "Classical", "RecordingTime": "1835",
                    "Comment": "Op. 9 No. 2", "Copyright": "public domain",
                ]
            case .opus:
                [
                    "Title": "夜想曲 第2番", "Artist": "Frédéric Chopin", "Album": "Nocturnes", "Genre": "Classical", "Date": "1835",
                    "Comment": "Op. 9 No. 2", "Copyright": "public domain",
                ]
            case .raw: [:]
            }
        for (name, value) in expected { #expect(read[name] == value, "\(name) in \(read)") }
        // Where each format keeps the program that made it: ID3v2's TSSE, the Vorbis comment ENCODER in Opus (libopus is its vendor).
        let software = [AudioFileFormat.mp3: "EncoderSettings", .opus: "Encoder"][format] ?? "Software"
        if format != .aiff { #expect(read[software]?.hasPrefix("smfplay 0.1.0") == true, "\(read)") }
    }

    @Test("a render normalized to its peak, written from its float render at the end, is tagged as well")
    func normalized() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox)
        let result = try sandbox.run(["render", "Songs/Nocturne.rmi", "-o", "nocturne.wav", "--normalize-peak"] + Fixtures.fast)
        try #require(result.succeeded, "\(result)")
        #expect(try Self.tags(sandbox.path("nocturne.wav")) == Self.nocturneTags(.wav))
    }

    @Test("INFO texts in Shift-JIS (IENC) are tagged in UTF-8; a plain song's title is read as --text-encoding asks")
    func encodings() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let japanese = RMIDWriter(texts: [.title: InfoRMIDCommandTests.nocturneShiftJIS], textEncoding: "Shift_JIS")
        try sandbox.write("sjis.rmi", japanese.encode(song: Fixtures.song(beats: 1)))
        // "テスト" in Shift-JIS, which Windows-1252 reads as "ƒeƒXƒg": the kana make a guess take Shift-JIS.
        var track = Track()
        track.append(.meta(.text(.trackName, [0x83, 0x65, 0x83, 0x58, 0x83, 0x67])), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 240)
        track.append(.meta(.endOfTrack), atTick: 240)
        try sandbox.write(
            "test.mid", SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        for (input, arguments, title) in [
            ("sjis.rmi", [], "夜想曲"), ("test.mid", [], "テスト"), ("test.mid", ["--text-encoding", "cp1252"], "ƒeƒXƒg"),
        ] {
            let result = try sandbox.run(["render", input, "-o", "out.flac"] + arguments + Fixtures.fast)
            try #require(result.succeeded, "\(result)")
            #expect(try Self.tags(sandbox.path("out.flac")).title == title, "\(input) \(arguments)")
        }
    }

    @Test("a song from standard input has the title it carries, and none else; FLAC, Ogg and Opus streams carry tags too, MP3 ones ID3v1's")
    func pipes() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try Self.songs(in: sandbox)
        let fast = Fixtures.fast.joined(separator: " ")
        let script = """
            "$SMFPLAY" render - -o nocturne.flac \(fast) < Songs/Nocturne.rmi && \
            "$SMFPLAY" render - -o untitled.flac \(fast) < "Songs/Untitled song.mid" && \
            "$SMFPLAY" render Songs/Nocturne.rmi -o - --format flac \(fast) > stream.flac && \
            "$SMFPLAY" render Songs/Nocturne.rmi -o - --format ogg \(fast) > stream.ogg && \
            "$SMFPLAY" render Songs/Nocturne.rmi -o - --format opus \(fast) > stream.opus && \
            "$SMFPLAY" render Songs/Gymnopédie.mid -o - --format mp3 \(fast) > stream.mp3
            """
        let result = try ShellPipeline.run(script, in: sandbox)
        try #require(result.status == 0, "\(result)")
        #expect(try Self.tags(sandbox.path("nocturne.flac")) == Self.nocturneTags(.flac))
        #expect(try Self.tags(sandbox.path("untitled.flac")) == AudioFileTags(software: "smfplay 0.1.0"), "standard input has no name")
        #expect(try Self.tags(sandbox.path("stream.flac")) == Self.nocturneTags(.flac))
        #expect(try Self.tags(sandbox.path("stream.ogg")) == Self.nocturneTags(.ogg))
        #expect(try Self.tags(sandbox.path("stream.opus")) == Self.nocturneTags(.opus))
        // libsndfile's ID3v1 tag, at the stream's end: the texts, no software. TagLib cannot go back to a stream's start.
        #expect(try Self.tags(sandbox.path("stream.mp3")) == AudioFileTags(title: "Gymnopédie No.1"))
        #expect(Array(try sandbox.contents("stream.mp3").suffix(128).prefix(3)) == Array("TAG".utf8))
        #expect(try Self.exiftoolTags(sandbox.path("stream.flac"))["Artist"] == "Frédéric Chopin")
    }
}
