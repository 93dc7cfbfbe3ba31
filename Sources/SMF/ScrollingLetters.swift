/// Display letters as the module's screen shows them, second by second after they were sent: a text
/// longer than the screen's letters (``ModuleDisplay/Module/lettersAtOnce``) scrolls through it one
/// letter at a time, from its start until its end is in view; a text that fits, or one sent to a
/// module that does not scroll, stands still.
///
/// Once the module is done scrolling, it would bring back its own screen (the part's instrument);
/// what is shown then is the whole text, kept until other letters replace it, so that a listener who
/// looks later still reads it.
public struct ScrollingLetters: Hashable, Sendable {
    /// No manual or data list found says how fast the Sound Canvas scrolls its letters: four letters
    /// a second is a choice, quick enough that 32 letters pass in 4 s, slow enough to read.
    public static let lettersPerSecond = 4.0

    /// The whole text, without the blanks that pad it.
    public let text: String
    public let module: ModuleDisplay.Module

    public init(_ text: String, module: ModuleDisplay.Module) {
        self.text = text
        self.module = module
    }

    /// How long the text scrolls after it is sent, in seconds: 0 for one that stands still.
    public var scrollSeconds: Double {
        guard let width = module.lettersAtOnce, text.count > width else { return 0 }
        return Double(text.count - width + 1) / Self.lettersPerSecond
    }

    /// What the screen shows `seconds` after the letters were sent: the letters in view while they
    /// scroll, else the whole text.
    public func shown(secondsAfterSent seconds: Double) -> String {
        guard let width = module.lettersAtOnce, seconds >= 0, seconds < scrollSeconds else { return text }
        let first = Int(seconds * Self.lettersPerSecond)
        return String(text.dropFirst(first).prefix(width))
    }
}
