import SMF
import Testing

@testable import TerminalUI

/// The lyrics under the play view's time line: the sung part marked, lines wrapped by the columns
/// their characters take.
@Suite struct LyricsViewTests {
    static func line(_ syllables: [(Double, String)]) -> Lyrics.Line {
        Lyrics.Line(syllables: syllables.map { Lyrics.Syllable(seconds: $0.0, text: $0.1) }, startsParagraph: false)
    }

    static let song = Lyrics(lines: [line([(1, "Twin"), (1.5, "kle "), (2, "twin"), (2.5, "kle")]), line([(3, "lit"), (3.5, "tle "), (4, "star")])])

    @Test func theSungPartIsBoldAndTheNextLineDimmed() {
        let rows = LyricsView(lyrics: Self.song).rows(atSeconds: 2.1, width: 40, colours: false)
        #expect(rows == ["\u{1B}[1mTwinkle twin\u{1B}[0mkle", "\u{1B}[2mlittle star\u{1B}[0m"])
    }

    @Test func beforeTheFirstLineOnlyItShowsAsNext() {
        #expect(LyricsView(lyrics: Self.song).rows(atSeconds: 0.5, width: 40, colours: false) == ["", "\u{1B}[2mTwinkle twinkle\u{1B}[0m"])
    }

    @Test func japaneseWrapsByColumnsNotCharacters() {
        // Nine kana, two columns each: four fit in 9 columns, then four, then one.
        let kana = Lyrics(lines: [Self.line([(0, "さくらさくらやよいの")])])
        let rows = LyricsView(lyrics: kana).rows(atSeconds: 10, width: 9, colours: false)
        #expect(rows == ["\u{1B}[1mさくらさ\u{1B}[0m", "\u{1B}[1mくらやよ\u{1B}[0m", "\u{1B}[1mいの\u{1B}[0m"])
    }

    @Test func englishWrapsAtASpace() {
        let rows = LyricsView.wrap(Array("the quick brown fox".map { ($0, sung: false) }), width: 10, rowLimit: 5).map { String($0.map(\.0)) }
        #expect(rows == ["the quick", "brown fox"])
    }

    @Test("a flood of lyric events (100,000 syllables on one line, 100,000 lines) shows a few rows, found at once")
    func aFloodOfSyllablesShowsAFewRows() {
        let long = Lyrics(lines: [Self.line((0..<100_000).map { (Double($0) / 10_000, "la ") })])
        #expect(LyricsView(lyrics: long).rows(atSeconds: 5, width: 80, colours: true).count == LyricsView.currentRowLimit)
        let many = Lyrics(lines: (0..<100_000).map { Self.line([(Double($0) / 10_000, "line \($0)")]) })
        #expect(LyricsView.lineIndex(in: many.lines, atSeconds: 5.00005) == 50_000)
        #expect(
            LyricsView(lyrics: many).rows(atSeconds: 5.00005, width: 80, colours: false) == [
                "\u{1B}[1mline 50000\u{1B}[0m", "\u{1B}[2mline 50001\u{1B}[0m",
            ])
    }
}
