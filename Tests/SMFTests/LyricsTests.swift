import Testing

@testable import SMF

/// Texts read with one encoding for the whole file, and lyrics in time.
struct LyricsTests {
    /// "夜想曲" (kanji only) and "よるのうた" in Shift-JIS, as Japanese sequencers wrote them.
    static let nocturneShiftJIS: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8]
    static let kanaShiftJIS: [UInt8] = [0x82, 0xE6, 0x82, 0xE9, 0x82, 0xCC, 0x82, 0xA4, 0x82, 0xBD]

    static func song(title: [UInt8], lyrics: [(tick: UInt32, bytes: [UInt8])], kind: MetaEvent.TextKind = .lyric) -> Song {
        var track = Track()
        track.append(.meta(.text(.trackName, title)), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        for (tick, bytes) in lyrics { track.append(.meta(.text(kind, bytes)), atTick: tick) }
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 3840)
        track.append(.meta(.endOfTrack), atTick: 3840)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
    }

    @Test func aKanjiOnlyTitleIsShiftJISWhenTheFilesLyricsAre() {
        let song = Self.song(title: Self.nocturneShiftJIS, lyrics: [(0, Self.kanaShiftJIS)])
        let decoding = TextDecoding(detectingIn: song.file)
        #expect(decoding.encoding == .shiftJIS)
        #expect(SongSummary(song: song).title == "夜想曲")
        // Alone, the title is no proof: a string that only makes kanji may be Windows-1252.
        #expect(TextDecoding(detectingIn: [Self.nocturneShiftJIS]).encoding == .cp1252)
    }

    @Test func europeanFilesStayWindows1252AndUTF8StaysUTF8() {
        // "Gymnopédie" and "Élan" in Windows-1252: É reads as a half-width katakana in Shift-JIS.
        let gymnopedie = Array("Gymnop".utf8) + [0xE9] + Array("die".utf8)
        let elan: [UInt8] = [0xC9] + Array("lan".utf8)
        let european = TextDecoding(detectingIn: [gymnopedie, elan])
        #expect(european.encoding == .cp1252)
        #expect(european.string(from: gymnopedie) == "Gymnopédie" && european.string(from: elan) == "Élan")
        let utf8 = TextDecoding(detectingIn: [Array("ショパン".utf8), Array("Ballade".utf8) + [0]])
        #expect(utf8.encoding == .utf8)
        #expect(utf8.string(from: Array("Ballade".utf8) + [0, 0]) == "Ballade")
    }

    @Test func aForcedEncodingReadsEveryString() {
        #expect(TextDecoding(forcing: .shiftJIS).string(from: Self.nocturneShiftJIS) == "夜想曲")
        #expect(TextDecoding(forcing: .cp1252).string(from: [0xE9]) == "é")
        // Bytes the encoding cannot read are read as Latin-1: nothing is dropped, nothing traps.
        #expect(TextDecoding(forcing: .utf8).string(from: [0x41, 0xFF]) == "Aÿ")
        #expect(TextDecoding(forcing: .shiftJIS).string(from: [0x81]) == "\u{81}")
    }

    @Test func lyricEventsMakeLinesAndParagraphsInTime() {
        let events: [(tick: UInt32, bytes: [UInt8])] = [
            (0, Array("Hap".utf8)), (240, Array("py ".utf8)), (480, Array("birth".utf8)), (720, Array("day\r".utf8)),
            (960, Array("to ".utf8)), (1200, Array("you".utf8)), (1440, Array("\\Hap".utf8)), (1680, Array("py".utf8)),
            (1920, Array("/birth".utf8)), (2160, Array("day".utf8)),
        ]
        let lyrics = Lyrics(song: Self.song(title: Array("Song".utf8), lyrics: events), decoding: TextDecoding(forcing: .utf8))
        #expect(lyrics.lines.map(\.text) == ["Happy birthday", "to you", "Happy", "birthday"])
        #expect(lyrics.lines.map(\.startsParagraph) == [false, false, true, false])
        #expect(lyrics.lines.map(\.seconds) == [0, 1, 1.5, 2])
        #expect(lyrics.text == "Happy birthday\nto you\n\nHappy\nbirthday")
        #expect(lyrics.lrc == "[00:00.00]Happy birthday\n[00:01.00]to you\n[00:01.50]Happy\n[00:02.00]birthday")
        #expect(lyrics.lines[0].syllables.map(\.seconds) == [0, 0.25, 0.5, 0.75])
    }

    @Test func karaokeTextEventsWithHeadersAreLyricsToo() {
        let events: [(tick: UInt32, bytes: [UInt8])] = [
            (0, Array("@KMIDI KARAOKE FILE".utf8)), (0, Array("@TGreensleeves".utf8)), (480, Array("\\A".utf8)), (600, Array("las ".utf8)),
            (720, Array("my ".utf8)), (960, Array("/love".utf8)),
        ]
        let lyrics = Lyrics(song: Self.song(title: Array("Greensleeves".utf8), lyrics: events, kind: .text), decoding: TextDecoding(forcing: .utf8))
        #expect(lyrics.text == "Alas my\nlove")
        #expect(lyrics.lines.first?.seconds == 0.5)
        // Plain text events of a file that is not karaoke are no lyrics.
        let notes = Lyrics(
            song: Self.song(title: Array("Song".utf8), lyrics: [(0, Array("Composed in 1890".utf8))], kind: .text),
            decoding: TextDecoding(forcing: .utf8))
        #expect(notes.isEmpty)
    }

    @Test func shiftJISLyricsAndHostileOnes() {
        let song = Self.song(title: Self.nocturneShiftJIS, lyrics: [(0, Self.kanaShiftJIS), (480, [0x2F] + Self.nocturneShiftJIS)])
        let lyrics = Lyrics(song: song, decoding: TextDecoding(detectingIn: song.file))
        #expect(lyrics.lines.map(\.text) == ["よるのうた", "夜想曲"])
        // Ten thousand syllables at one tick, with bytes no encoding reads and lone marks: read in
        // one pass, every syllable kept.
        let many = (0..<10_000).map {
            (tick: UInt32(0), bytes: $0 % 3 == 0 ? [UInt8(0xFF), 0xFE] : $0 % 3 == 1 ? [UInt8(ascii: "/")] : Array("la".utf8))
        }
        let flood = Lyrics(song: Self.song(title: [], lyrics: many), decoding: TextDecoding(forcing: .utf8))
        #expect(flood.lines.reduce(0) { $0 + $1.syllables.count } == 6_667)
    }
}
