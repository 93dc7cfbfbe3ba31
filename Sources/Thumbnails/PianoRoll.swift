import SMF

/// Draws a song as a piano roll into an image: each note a bar in its
/// channel's colour, as bright as its velocity (drums a one-column stroke),
/// over rows shaded like the keys of a keyboard. Time is in seconds through
/// the tempo map, so a bar is as long as the note sounds.
public struct PianoRoll: Sendable {
    public let geometry: PianoRollGeometry
    private let tempoMap: TempoMap
    public private(set) var image: RGBImage
    // Notes come about in time order, so the tempo segments of their starts and ends seldom change.
    private var startSegment = 0
    private var endSegment = 0

    /// An empty roll laid out for the song `outline` describes.
    public init(outline: SongOutline, width: Int, height: Int) {
        geometry = PianoRollGeometry(outline: outline, width: width, height: height)
        tempoMap = outline.tempoMap
        image = RGBImage(width: width, height: height, filledWith: ChannelPalette.background)
        // With less than two rows a key, shading would only stripe the picture.
        guard height >= 2 * geometry.pitches.count else { return }
        for pitch in geometry.pitches where ChannelPalette.background(ofPitch: pitch) != ChannelPalette.background {
            image.fill(columns: 0..<width, rows: geometry.rows(ofPitch: pitch), with: ChannelPalette.background(ofPitch: pitch))
        }
    }

    public mutating func draw(_ note: RollNote) {
        // A drum sounds briefly whatever its note-off says, and drum parts often hold
        // a key until its next hit: drums are strokes where they start.
        let endTick = note.channel == GeneralMIDI.percussionChannel ? note.startTick : note.endTick
        let columns = geometry.columns(
            fromSeconds: tempoMap.seconds(atTick: note.startTick, segmentHint: &startSegment),
            toSeconds: tempoMap.seconds(atTick: endTick, segmentHint: &endSegment))
        image.fill(
            columns: Self.leavingAGap(columns), rows: Self.leavingAGap(geometry.rows(ofPitch: Int(note.pitch))),
            with: ChannelPalette.colour(channel: note.channel, velocity: note.velocity))
    }

    /// A bar's cells without the last when there are three or more: a gap after each note and
    /// below each key keeps repeated notes and neighbouring keys apart where there is room.
    private static func leavingAGap(_ cells: Range<Int>) -> Range<Int> {
        cells.count >= 3 ? cells.lowerBound..<cells.upperBound - 1 : cells
    }

    /// The second pass: every note of `stream` drawn on a roll laid out from the first.
    public static func image(of stream: SMFEventStream, outline: SongOutline, width: Int, height: Int) throws(SMFError) -> RGBImage {
        var roll = PianoRoll(outline: outline, width: width, height: height)
        try stream.visitNotes { roll.draw($0) }
        return roll.image
    }
}
