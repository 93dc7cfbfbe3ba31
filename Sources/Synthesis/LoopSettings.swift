/// How many times a song's loop (``SMF/SongLoop``) plays, and how the song ends after it.
public struct LoopSettings: Hashable, Sendable {
    /// How many times the looped part plays in all (1 plays the song as written); `nil`: for ever.
    public var passes: Int?
    /// After the last pass, the loop plays on while the sound fades out over this many seconds (of
    /// what is heard), and the song ends there; 0 ends the last pass as the file goes on after it.
    public var fadeSeconds: Double

    /// How many extra passes a listener may ask for.
    public static let extraPassesRange = 0...1000
    public static let fadeRange = 0.0...60.0
    /// The file as written.
    public static let asWritten = LoopSettings(passes: 1, fadeSeconds: 0)

    public init(passes: Int?, fadeSeconds: Double) {
        self.passes = passes
        self.fadeSeconds = fadeSeconds
    }
}
