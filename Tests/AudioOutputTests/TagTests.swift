import SystemPackage
import Testing

@testable import AudioOutput

/// The tags a writer is given, read back from real files by libsndfile: what each format keeps.
struct TagTests {
    /// Every text, with accents and Japanese in them.
    static let tags = AudioFileTags(
        title: "前奏曲 Op.28 No.4 (Prélude)", artist: "Frédéric Chopin", album: "24 Préludes", genre: "Classical", date: "1839",
        comment: "雨だれ: a comment", copyright: "Public domain", software: "smfplay 0.1.0")

    /// What each format keeps of ``tags``, as measured with libsndfile 1.2 (see ``AudioFileTags``).
    static func kept(by format: AudioFileFormat) -> AudioFileTags {
        var kept = tags
        if format == .aiff {
            kept.album = nil
            kept.genre = nil
            kept.date = nil
        }
        return kept
    }

    /// Writes a short sine with `tags` and reads the file's tags back.
    static func roundTrip(_ tags: AudioFileTags, format: AudioFileFormat, in folder: TemporaryFolder) throws -> AudioFileTags {
        let path = FilePath(folder.file("tagged.\(format.fileExtension)"))
        let writer = try AudioFileWriter(path: path, format: format, encoding: .pcm16, sampleRate: 48_000, channels: 2, tags: tags)
        try writer.write(TestSignal.sine(frames: 4_410))
        try writer.finish()
        var read = try AudioFileReader(path: path).tags
        // libsndfile names itself after the software given: "smfplay 0.1.0 (libsndfile-1.2.0)".
        if let software = read.software, let given = tags.software, software.hasPrefix(given + " (libsndfile") { read.software = given }
        return read
    }

    @Test(arguments: AudioFileFormat.fileFormats)
    func eachFormatKeepsItsTags(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        #expect(try Self.roundTrip(Self.tags, format: format, in: folder) == Self.kept(by: format))
    }

    @Test("a text beyond 2,000 bytes is cut between characters, and every other tag is still there", arguments: AudioFileFormat.fileFormats)
    func longTextIsCut(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        var tags = Self.tags
        // 3 bytes a character: 2,000 is no boundary, 1,998 is.
        tags.comment = String(repeating: "雨", count: 3_000)
        var expected = Self.kept(by: format)
        expected.comment = String(repeating: "雨", count: 666)
        #expect(try Self.roundTrip(tags, format: format, in: folder) == expected)
    }

    /// libsndfile keeps no album, genre or date in AIFF: TagLib's ID3 chunk holds every text, in
    /// UTF-8, as ffprobe (a reader that shares no code with either) finds them.
    @Test func anAIFFFileHasEveryTextInItsID3Chunk() throws {
        let folder = try TemporaryFolder()
        _ = try Self.roundTrip(Self.tags, format: .aiff, in: folder)
        let read = try FFmpegReader.probe(folder.file("tagged.aiff")).tags
        let expected = [
            "TITLE": Self.tags.title, "ARTIST": Self.tags.artist, "ALBUM": Self.tags.album, "GENRE": Self.tags.genre, "DATE": Self.tags.date,
            "COMMENT": Self.tags.comment, "COPYRIGHT": Self.tags.copyright,
        ]
        for (name, value) in expected { #expect(read[name] == value, "\(name) in \(read)") }
    }

    @Test func textEndsAtItsFirstNUL() {
        #expect(AudioFileTags.storable("Nocturne\0garbage") == "Nocturne")
        // The last character would end at byte 2,001: it is left out whole, not split.
        #expect(AudioFileTags.storable(String(repeating: "x", count: 1_999) + "é") == String(repeating: "x", count: 1_999))
    }

    @Test func noTagsWriteNone() throws {
        let folder = try TemporaryFolder()
        #expect(try Self.roundTrip(AudioFileTags(), format: .flac, in: folder) == AudioFileTags())
    }
}
