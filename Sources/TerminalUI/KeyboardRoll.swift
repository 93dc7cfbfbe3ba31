import SMF
import SystemPackage
import Thumbnails

/// A song drawn for a terminal as a piano roll under the play view's keyboard: time runs down,
/// one row per slice of time (labelled with its start), and each note fills, in its channel's
/// colour, its key's columns in the rows of the slices it sounds in. Drums are marks where
/// they start, as in the piano-roll images.
public struct KeyboardRoll {
    public static let defaultMaximumRows = 48
    public static let maximumRowsAllowed = 1...10_000
    /// Slices a row may stand for, in seconds: the shortest that lets the song fit is taken.
    static let slices: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600]

    let keyboard: PianoKeyboard
    /// Seconds a row stands for.
    let slice: Double
    /// For each row, for each key 0–127, the channels sounding it (bit c for channel c).
    private(set) var sounding: [[UInt64]]
    private let tempoMap: TempoMap
    /// Columns before the keyboard: the rows' times.
    private let labelWidth: Int

    /// An empty roll for the song `outline` describes, in at most `width` columns and
    /// `maximumRows` rows of time; `nil` when the keyboard does not fit.
    init?(outline: SongOutline, width: Int, maximumRows: Int) {
        let slice =
            Self.slices.first { Self.rowCount(duration: outline.duration, slice: $0) <= maximumRows }
            ?? (outline.duration / Double(maximumRows)).rounded(.up)
        let rows = outline.noteCount == 0 ? 0 : Self.rowCount(duration: outline.duration, slice: slice)
        labelWidth = DisplayWidth.columns(of: formatDuration(Double(max(rows - 1, 0)) * slice))
        guard let keyboard = PianoKeyboard(songKeys: outline.pitchRange, width: width - labelWidth - 1) else { return nil }
        self.keyboard = keyboard
        self.slice = slice
        tempoMap = outline.tempoMap
        sounding = Array(repeating: Array(repeating: 0, count: PianoKeyboard.allKeys.count), count: rows)
    }

    /// Rows for a song lasting `duration` seconds: at least one, so that a song whose notes all
    /// end at 0 s shows them.
    private static func rowCount(duration: Double, slice: Double) -> Int {
        max(1, Int((duration / slice - 1e-9).rounded(.up)))
    }

    /// The rows a stretch of time covers: at least one, so that the shortest note shows, and a
    /// note ending where a row starts leaves that row out.
    func rows(fromSeconds start: Double, toSeconds end: Double) -> ClosedRange<Int> {
        let first = min(Int(start / slice), sounding.count - 1)
        let last = min(max(first, Int((end / slice - 1e-9).rounded(.up)) - 1), sounding.count - 1)
        return first...last
    }

    mutating func add(_ note: RollNote) {
        guard !sounding.isEmpty else { return }
        // A drum sounds briefly whatever its note-off says.
        let endTick = note.channel == GeneralMIDI.percussionChannel ? note.startTick : note.endTick
        let rows = rows(fromSeconds: tempoMap.seconds(atTick: note.startTick), toSeconds: tempoMap.seconds(atTick: endTick))
        for row in rows { sounding[row][Int(note.pitch)] |= 1 << UInt64(note.channel) }
    }

    /// The keyboard's rows, then the roll's, each `indent` and the time column before it.
    public func lines(indent: String, colours: Bool) -> [String] {
        let blank = indent + String(repeating: " ", count: labelWidth + 1)
        let keyboardRows = keyboard.rows(pressed: [], colours: colours).map { blank + $0 }
        return keyboardRows
            + sounding.enumerated().map { row, keys in
                let label = formatDuration(Double(row) * slice)
                return indent + String(repeating: " ", count: labelWidth - DisplayWidth.columns(of: label)) + label + " "
                    + keyboard.rollRow(sounding: keys, colours: colours)
            }
    }

    /// The roll of a MIDI file: two passes over its events, keeping none.
    public static func read(path: FilePath, policy: SMFReadingPolicy, width: Int, maximumRows: Int) throws(SMFFileError) -> KeyboardRoll? {
        let stream = try SMFEventStream(path: path, policy: policy)
        do throws(SMFError) {
            return try read(stream, width: width, maximumRows: maximumRows)
        } catch {
            throw .invalid(path: path, error)
        }
    }

    /// The roll of a file's events (the bytes of one piped in on standard input).
    public static func read(_ stream: SMFEventStream, width: Int, maximumRows: Int) throws(SMFError) -> KeyboardRoll? {
        guard var roll = KeyboardRoll(outline: try SongOutline(stream: stream), width: width, maximumRows: maximumRows) else { return nil }
        try stream.visitNotes { roll.add($0) }
        return roll
    }
}
