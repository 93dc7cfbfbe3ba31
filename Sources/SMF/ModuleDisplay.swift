/// A sound module's screen as a song writes on it, message by message: its letters, and the
/// Sound Canvas's dot picture, which dot data changes a part at a time.
public struct ModuleDisplay: Hashable, Sendable {
    public enum Module: String, Hashable, Sendable {
        case soundCanvas = "GS"
        case xg = "XG"
    }

    /// What the screen shows after a message.
    public enum Content: Hashable, Sendable {
        case text([UInt8], Module)
        case picture(DotPicture)
    }

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
            picture.write(bytes, at: offset)
            return .picture(picture)
        }
    }

    /// What `song` writes on its module's screen, in time order (each picture whole, as it stands
    /// after the change).
    public static func changes(in song: Song) -> [(seconds: Double, content: Content)] {
        var screen = ModuleDisplay()
        var changes: [(seconds: Double, content: Content)] = []
        song.forEachMergedEvent { timed in
            guard timed.event.status == 0xF0 else { return }
            let bytes = song.payload(of: timed)
            guard bytes.last == 0xF7, let message = ModuleDisplayMessage(systemExclusive: bytes.dropLast()) else { return }
            changes.append((timed.seconds, screen.show(message)))
        }
        return changes
    }
}
