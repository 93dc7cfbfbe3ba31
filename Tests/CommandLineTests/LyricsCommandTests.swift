import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay lyrics`, and the text encoding decided for a whole file, as `info` shows it.
@Suite("smfplay lyrics and text encodings")
struct LyricsCommandTests {
    /// "夜想曲" (kanji only) and "よるのうた" in Shift-JIS.
    static let nocturne: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8]
    static let kana: [UInt8] = [0x82, 0xE6, 0x82, 0xE9, 0x82, 0xCC, 0x82, 0xA4, 0x82, 0xBD]

    /// A song titled `title` whose lyric (or karaoke text) events are `words`, a beat apart.
    static func song(title: [UInt8], words: [[UInt8]], kind: MetaEvent.TextKind = .lyric) -> [UInt8] {
        var track = Track()
        track.append(.meta(.text(.trackName, title)), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        for (index, word) in words.enumerated() { track.append(.meta(.text(kind, word)), atTick: UInt32(index * 480)) }
        let end = UInt32(max(words.count, 1) * 480)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: end)
        track.append(.meta(.endOfTrack), atTick: end)
        return SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    @Test("lyrics prints the lines; --lrc the lines with the time each is sung; a karaoke file's text events are its lyrics")
    func plainAndLRC() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "happy.mid", Self.song(title: Array("Happy".utf8), words: ["Hap", "py ", "birth", "day\r", "to ", "you"].map { Array($0.utf8) }))
        let plain = try sandbox.run(["lyrics", "happy.mid"])
        #expect(plain.succeeded && plain.stdoutLines == ["Happy birthday", "to you"], "\(plain)")
        let lrc = try sandbox.run(["lyrics", "--lrc", "happy.mid"])
        #expect(lrc.succeeded && lrc.stdoutLines == ["[00:00.00]Happy birthday", "[00:02.00]to you"], "\(lrc)")
        try sandbox.write(
            "green.kar",
            Self.song(
                title: Array("Greensleeves".utf8),
                words: ["@KMIDI KARAOKE FILE", "\\A", "las ", "my ", "/love"].map { Array($0.utf8) }, kind: .text))
        let karaoke = try sandbox.run(["lyrics", "green.kar"])
        #expect(karaoke.succeeded && karaoke.stdoutLines == ["Alas my", "love"], "\(karaoke)")
    }

    @Test("a file without lyrics says so, with status 1; a bad --text-encoding is a usage error")
    func noLyrics() throws {
        let sandbox = try Sandbox()
        try sandbox.write("plain.mid", Self.song(title: Array("Plain".utf8), words: []))
        let none = try sandbox.run(["lyrics", "plain.mid"])
        #expect(none.status == 1 && none.stderrLines == ["smfplay: plain.mid: no lyrics (no lyric events, and no karaoke text)"], "\(none)")
        let usage = try sandbox.run(["lyrics", "--text-encoding", "ebcdic", "plain.mid"])
        #expect(usage.status == 64 && usage.stderr.contains("--text-encoding must be auto, utf-8, shift-jis or cp1252"), "\(usage)")
    }

    @Test("a folder or an archive given for the song is said to be one, not taken for a file that is not MIDI")
    func folderOrArchive() throws {
        let sandbox = try Sandbox()
        try sandbox.write("Songs/plain.mid", Self.song(title: Array("Plain".utf8), words: []))
        var zip = ZIPWriter()
        zip.add(name: "plain.mid", data: Self.song(title: Array("Plain".utf8), words: []))
        try sandbox.write("pack.zip", zip.encode())
        let folder = try sandbox.run(["lyrics", "Songs"])
        #expect(
            folder.status == 1 && folder.stderrLines == ["smfplay: Songs: a folder, not a song: name a song in it, as Songs/song.mid"], "\(folder)")
        let archive = try sandbox.run(["lyrics", "pack.zip"])
        #expect(
            archive.status == 1 && archive.stderrLines == ["smfplay: pack.zip: an archive, not a song: name a song in it, as pack.zip/song.mid"],
            "\(archive)")
        let thumbnail = try sandbox.run(["thumbnail", "pack.zip", "pack.png"])
        #expect(thumbnail.status == 1 && thumbnail.stderr.contains("pack.zip: an archive, not a song"), "\(thumbnail)")
    }

    @Test(
        "a kanji-only title in Shift-JIS is read as such when the file's lyrics are, in info and lyrics; --text-encoding and text_encoding override it"
    )
    func oneEncodingForTheWholeFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("nocturne.mid", Self.song(title: Self.nocturne, words: [Self.kana, [0x2F] + Self.nocturne]))
        let info = try sandbox.run(["info", "nocturne.mid"])
        #expect(info.succeeded && info.stdout.contains("Title      夜想曲"), "\(info)")
        let lyrics = try sandbox.run(["lyrics", "nocturne.mid"])
        #expect(lyrics.stdoutLines == ["よるのうた", "夜想曲"], "\(lyrics)")
        // Forced to Windows-1252, the same bytes are mojibake: the option is obeyed.
        let forced = try sandbox.run(["info", "--text-encoding", "cp1252", "nocturne.mid"])
        #expect(forced.succeeded && !forced.stdout.contains("夜想曲"), "\(forced)")
        try sandbox.writeUserConfiguration("text_encoding = \"cp1252\"\n")
        let configured = try sandbox.run(["lyrics", "nocturne.mid"])
        #expect(configured.succeeded && !configured.stdout.contains("よるのうた"), "\(configured)")
        let overridden = try sandbox.run(["lyrics", "--text-encoding", "auto", "nocturne.mid"])
        #expect(overridden.stdoutLines == ["よるのうた", "夜想曲"], "\(overridden)")
    }
}
