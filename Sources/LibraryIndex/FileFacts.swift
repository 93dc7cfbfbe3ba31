import Files
import SMF
import SystemPackage

/// What the index keeps from reading a MIDI file.
struct FileFacts {
    var duration: Double
    var format: Int
    var trackCount: Int
    var channels: [Int]
    var noteCount: Int
    var programs: [Int]
    var mode: MIDIMode
    var title: String?
    /// An RMID file's INFO artist, album and genre.
    var artist: String?
    var album: String?
    var genre: String?
    var copyright: String?
    var hasLyrics: Bool
    /// The lyrics, then the text events that are not karaoke lyrics (comments, credits, sometimes
    /// the words), a line each.
    var words: String

    /// Reads the file leniently, as the player does: a file the player plays is indexed. Its texts
    /// are read in `textEncoding`, or nil, in the encoding its own text shows.
    init(path: FilePath, textEncoding: TextDecoding.Encoding?) throws(SMFFileError) {
        let file = try SMFReader().read(path: path).file
        let summary = SongSummary(song: Song(file: file), textDecoding: textEncoding.map(TextDecoding.init(forcing:)), displayAndLoop: false)
        duration = summary.durationSeconds
        format = summary.format
        trackCount = summary.tracks.count
        channels = summary.channels.filter { $0.noteCount > 0 }.map(\.channel)
        noteCount = summary.noteCount
        programs = Array(Set(summary.channels.filter { !$0.isPercussion }.flatMap { $0.programs.map { $0.program + 1 } })).sorted()
        mode = summary.midiMode.mode
        title = summary.title
        artist = summary.rmidInfo?.artist
        album = summary.rmidInfo?.album
        genre = summary.rmidInfo?.genre
        copyright = summary.copyright
        hasLyrics = summary.lyrics != nil
        let texts = file.tracks.flatMap { track in
            track.payloadEventIndices.compactMap { index -> String? in
                let event = track.events[index]
                guard track.metaType(of: event) == 0x01 else { return nil }
                return Self.searchedText(summary.textDecoding.string(from: track.payload(of: event)))
            }
        }
        words = ([summary.lyrics].compactMap { $0 } + texts).joined(separator: "\n")
    }

    /// A text event's words as searched: a karaoke file's title, artist and notes (`@T`, `@I`: often
    /// the only place a Soft Karaoke file names its song) without their tags; none of its other
    /// header lines (`@K` the file type, `@V` the version, `@L` the language), nor an empty text.
    static func searchedText(_ text: String) -> String? {
        guard text.hasPrefix("@") else { return text.isEmpty ? nil : text }
        guard text.hasPrefix("@T") || text.hasPrefix("@I") else { return nil }
        let words = text.dropFirst(2)
        return words.isEmpty ? nil : String(words)
    }
}
