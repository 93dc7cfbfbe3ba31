/// The standard a song was written for, which decides how its bank selects, drum parts and
/// system exclusive messages are read: a Roland Sound Canvas (GS), a Yamaha XG module, a
/// General MIDI Level 2 module, or plain General MIDI.
public enum MIDIMode: String, CaseIterable, Codable, Sendable {
    case gm, gs, xg, gm2

    /// The name players and manuals use.
    public var displayName: String {
        switch self {
        case .gm: "GM"
        case .gs: "GS"
        case .xg: "XG"
        case .gm2: "GM2"
        }
    }
}
