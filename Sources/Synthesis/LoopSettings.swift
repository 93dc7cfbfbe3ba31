/// How many times a song's loop (``SMF/SongLoop``) plays, and how the song ends after it.
public struct LoopSettings: Hashable, Sendable {
    /// How many times the looped part plays in all (1 plays the song as written); `nil`: for ever.
    public var passes: Int?
    /// After the last pass, the loop plays on while the sound fades out over this many seconds (of
    /// what is heard), and the song ends there; 0 ends the last pass as the file goes on after it.
    public var fadeSeconds: Double
    /// Whether each song's loop plays as many times as its mark says (`--loops marked`: EMIDI's
    /// and XMI's marks carry a count); `passes` for a song whose mark says none.
    public var followsMarks: Bool
    /// The passes a mark that asks for ever gets, when these follow marks: nil plays it for ever
    /// (`play`); a render, which must end, gives a number whether or not the command line asked
    /// for marks, since a folder's settings may.
    public var passesForMarkedForever: Int?

    public static let fadeRange = 0.0...60.0
    /// The file as written.
    public static let asWritten = LoopSettings(passes: 1, fadeSeconds: 0)

    /// Whether a song plays as written, loop marks or not (what a render gives for a marked
    /// loop, which these keep whether or not they follow marks, does not count).
    public var isAsWritten: Bool { passes == 1 && fadeSeconds == 0 && !followsMarks }

    public init(passes: Int?, fadeSeconds: Double, followsMarks: Bool = false, passesForMarkedForever: Int? = nil) {
        self.passes = passes
        self.fadeSeconds = fadeSeconds
        self.followsMarks = followsMarks
        self.passesForMarkedForever = passesForMarkedForever
    }

    /// These settings with the passes `count` asks for; `.marked` keeps `passes` for the songs
    /// whose mark gives no count.
    public mutating func count(_ count: LoopCount) {
        switch count {
        case .extra(let extra): (passes, followsMarks) = (extra + 1, false)
        case .forever: (passes, followsMarks) = (nil, false)
        case .marked: followsMarks = true
        }
    }

    /// The settings for a song whose loop mark asks for `markedPasses` (0: for ever; nil: it
    /// says nothing): what the mark asks, when these follow marks.
    public func applying(markedPasses: Int?) -> LoopSettings {
        guard followsMarks, let markedPasses else { return self }
        return LoopSettings(passes: markedPasses == 0 ? passesForMarkedForever : markedPasses, fadeSeconds: fadeSeconds)
    }
}
