/// A song's words in time: lines of syllables, each with the moment it is sung.
///
/// Taken from the lyric events (FF 05) when the file has any; otherwise from the text events
/// (FF 01) of a karaoke `.kar` file (one that says `@K…`, or whose text events break lines with
/// `/` and `\`), whose `@` headers are left out. In both, `/` (and a line break) starts a line and
/// `\` a paragraph; in lyric events a Yamaha XF `<` starts a paragraph too. A syllable carries its
/// own spaces, as the file has them.
public struct Lyrics: Hashable, Sendable {
    public struct Syllable: Hashable, Sendable {
        public var seconds: Double
        public var text: String

        public init(seconds: Double, text: String) {
            self.seconds = seconds
            self.text = text
        }
    }

    public struct Line: Hashable, Sendable {
        public var syllables: [Syllable]
        /// The line begins a paragraph (a verse): shown after an empty line.
        public var startsParagraph: Bool

        public init(syllables: [Syllable], startsParagraph: Bool) {
            self.syllables = syllables
            self.startsParagraph = startsParagraph
        }

        public var text: String { syllables.map(\.text).joined().trimmingSpaces }
        /// When its first syllable is sung.
        public var seconds: Double { syllables.first?.seconds ?? 0 }
    }

    public var lines: [Line]

    public var isEmpty: Bool { lines.isEmpty }

    public init(lines: [Line]) {
        self.lines = lines
    }

    /// The lyrics of `song`, its text read with `decoding`.
    public init(song: Song, decoding: TextDecoding) {
        var lyricEvents: [(seconds: Double, bytes: [UInt8])] = []
        var textEvents: [(seconds: Double, bytes: [UInt8])] = []
        var isKaraoke = false
        // Only lyric and text events are put in the song's order and decoded (their bytes copied).
        let isWanted = { (track: Track, event: TrackEvent) in track.metaType(of: event).map { $0 == 0x01 || $0 == 0x05 } ?? false }
        for timed in song.mergedPayloadEvents(where: isWanted) {
            guard case .meta(.text(let kind, let bytes)) = song.message(of: timed) else { continue }
            let event = (seconds: timed.seconds, bytes: bytes)
            switch kind {
            case .lyric: lyricEvents.append(event)
            case .text:
                if bytes.starts(with: Array("@K".utf8)) { isKaraoke = true }
                textEvents.append(event)
            default: break
            }
        }
        if !lyricEvents.isEmpty {
            self.init(events: lyricEvents, decoding: decoding, paragraphMarks: ["\\", "<"])
        } else if isKaraoke || textEvents.contains(where: { $0.bytes.first == UInt8(ascii: "/") || $0.bytes.first == UInt8(ascii: "\\") }) {
            self.init(events: textEvents.filter { $0.bytes.first != UInt8(ascii: "@") }, decoding: decoding, paragraphMarks: ["\\"])
        } else {
            self.init(lines: [])
        }
    }

    private init(events: [(seconds: Double, bytes: [UInt8])], decoding: TextDecoding, paragraphMarks: Set<Character>) {
        var lines: [Line] = []
        var current = Line(syllables: [], startsParagraph: false)
        func endLine(startingParagraph: Bool) {
            // Joined once: a line's text is its syllables joined and trimmed.
            let isEmpty = current.syllables.isEmpty || current.text.isEmpty
            if !isEmpty { lines.append(current) }
            current = Line(syllables: [], startsParagraph: startingParagraph || (isEmpty && current.startsParagraph))
        }
        for (seconds, bytes) in events {
            var text = Substring(decoding.string(from: bytes))
            // Marks at the start of the syllable break before it.
            while let first = text.first, first == "/" || paragraphMarks.contains(first) || first.isNewline {
                endLine(startingParagraph: paragraphMarks.contains(first) || (first.isNewline && current.text.isEmpty && !lines.isEmpty))
                text = text.dropFirst()
            }
            // A break at the end of a syllable (a line break in a lyric event) comes after it.
            var breaksAfter = false
            while let last = text.last, last.isNewline {
                breaksAfter = true
                text = text.dropLast()
            }
            if !text.isEmpty { current.syllables.append(Syllable(seconds: seconds, text: String(text))) }
            if breaksAfter { endLine(startingParagraph: false) }
        }
        endLine(startingParagraph: false)
        if let first = lines.first, first.startsParagraph { lines[0].startsParagraph = false }
        self.init(lines: lines)
    }

    /// The words as text: a line a line, an empty line before each paragraph.
    public var text: String {
        lines.map { ($0.startsParagraph ? "\n" : "") + $0.text }.joined(separator: "\n")
    }

    /// The words as LRC, the format of lyrics beside audio files: `[mm:ss.xx]` and the line.
    public var lrc: String {
        lines.map { line in
            let hundredths = Int((line.seconds * 100).rounded())
            let minutes = hundredths / 6000
            let seconds = (hundredths % 6000) / 100
            return "[" + Self.twoDigits(minutes) + ":" + Self.twoDigits(seconds) + "." + Self.twoDigits(hundredths % 100) + "]" + line.text
        }.joined(separator: "\n")
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
