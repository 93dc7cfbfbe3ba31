/// A sound module's screen as a song writes on it, message by message: its letters, and its 16×16
/// dot picture (the Sound Canvas's, which dot data changes a part at a time, or an MU's bitmap,
/// sent whole).
public struct ModuleDisplay: Hashable, Sendable {
    public enum Module: String, Hashable, Sendable {
        case soundCanvas = "GS"
        case xg = "XG"

        /// How many letters the module's screen shows at once when it scrolls a longer text; nil for
        /// one that shows all it is sent. The Sound Canvas's letters take the place of the part's
        /// instrument name, 16 characters wide, and scroll through up to 32 (the SC-88 Pro's manual:
        /// "Displayed Letter", 32 bytes at `10 00 00`); an MU shows up to 32 (the VL70-m manual's
        /// "Message Window") on its two lines of 16, without scrolling.
        public var lettersAtOnce: Int? {
            switch self {
            case .soundCanvas: 16
            case .xg: nil
            }
        }

        /// How long the module shows a picture before its own screen comes back, in seconds; nil for
        /// one kept until the next replaces it. An MU shows a bitmap "for about 3 seconds" (the
        /// VL70-m owner's manual, "Bitmap Window": the same XG message on the same kind of screen);
        /// no Sound Canvas manual found says how long it shows its dot picture, so it stays.
        public var pictureSeconds: Double? {
            switch self {
            case .soundCanvas: nil
            case .xg: 3
            }
        }
    }

    /// What the screen shows after a message.
    public enum Content: Hashable, Sendable {
        case text([UInt8], Module)
        case picture(DotPicture, Module)
    }

    /// The Sound Canvas's picture as its dot data has drawn it so far.
    public private(set) var picture = DotPicture()

    /// Letters as text, read as the song's texts are, without the blanks that pad them.
    public static func text(_ letters: [UInt8], decoding: TextDecoding) -> String {
        String(decoding.string(from: letters).reversed().drop { $0 == " " }.reversed())
    }

    public init() {}

    /// What the screen shows once `message` has been sent.
    public mutating func show(_ message: ModuleDisplayMessage) -> Content {
        switch message {
        case .text(let bytes, let module): return .text(bytes, module)
        case .dots(let offset, let bytes):
            picture.write(bytes, at: offset, layout: .soundCanvas)
            return .picture(picture, .soundCanvas)
        case .bitmap(let bytes): return .picture(DotPicture(bytes, layout: .xg), .xg)
        }
    }

    /// What `song` writes on its module's screen, in time order (each picture whole, as it stands
    /// after the change).
    public static func changes(in song: Song) -> [(seconds: Double, content: Content)] {
        var screen = ModuleDisplay()
        var changes: [(seconds: Double, content: Content)] = []
        for timed in song.mergedPayloadEvents(where: { $1.status == 0xF0 }) {
            let bytes = song.payload(of: timed)
            guard bytes.last == 0xF7, let message = ModuleDisplayMessage(systemExclusive: bytes.dropLast()) else { continue }
            changes.append((timed.seconds, screen.show(message)))
        }
        return changes
    }
}
