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
}
