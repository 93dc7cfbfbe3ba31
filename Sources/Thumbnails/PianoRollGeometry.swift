/// Where a piano roll puts things on a grid of `width` × `height` cells:
/// pixels for an image, character cells for a terminal.
///
/// Time runs left to right, from the song's start to the end of its last note.
/// Pitch runs bottom to top over the song's keys, with ``margin`` keys to spare
/// on either side, so that the highest and lowest notes do not touch the edges.
public struct PianoRollGeometry: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// The keys shown, from the bottom row to the top one.
    public let pitches: ClosedRange<Int>
    /// The time shown, in seconds from the start.
    public let duration: Double

    /// Keys shown beyond the song's lowest and highest notes.
    public static let margin = 2
    /// The keys shown for a song with no notes: the two octaves around middle C.
    public static let emptySongPitches = 48...72

    /// `pitchRange` is the lowest and highest key of the song's notes (`nil` for
    /// none), `duration` when its last note ends; `width` and `height` are at least 1.
    public init(pitchRange: ClosedRange<UInt8>?, duration: Double, width: Int, height: Int) {
        precondition(width >= 1 && height >= 1, "a piano roll needs at least one cell")
        self.width = width
        self.height = height
        if let pitchRange {
            pitches = max(0, Int(pitchRange.lowerBound) - Self.margin)...min(127, Int(pitchRange.upperBound) + Self.margin)
        } else {
            pitches = Self.emptySongPitches
        }
        self.duration = duration
    }

    public init(outline: SongOutline, width: Int, height: Int) {
        self.init(pitchRange: outline.pitchRange, duration: outline.duration, width: width, height: height)
    }

    /// The horizontal position of a time: 0 at the start, `width` at the end.
    public func x(atSeconds seconds: Double) -> Double {
        // A song whose notes all end at 0 s still shows them, across the whole width.
        guard duration > 0 else { return seconds > 0 ? Double(width) : 0 }
        return min(max(seconds / duration, 0), 1) * Double(width)
    }

    /// The columns a stretch of time covers: at least one, so that the shortest note shows.
    public func columns(fromSeconds start: Double, toSeconds end: Double) -> Range<Int> {
        let first = min(Int(x(atSeconds: start)), width - 1)
        let last = Int(x(atSeconds: end).rounded())
        return first..<max(first + 1, min(last, width))
    }

    /// The rows a key covers, counted from the top: at least one, and none for a key outside ``pitches``.
    public func rows(ofPitch pitch: Int) -> Range<Int> {
        guard pitches.contains(pitch) else { return 0..<0 }
        let fromTop = pitches.upperBound - pitch
        let top = fromTop * height / pitches.count
        let bottom = (fromTop + 1) * height / pitches.count
        return top..<max(bottom, top + 1)
    }
}
