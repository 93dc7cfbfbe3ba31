/// The system common and real-time status bytes (0xF1–0xF6, 0xF8–0xFE): a MIDI
/// cable carries them, a file may not, yet files recorded from a live stream
/// hold them (MIDI Time Code, timing clock). What the reader needs to skip one
/// and to name it in a warning.
enum SystemStatus {
    /// The data bytes the message takes on a cable; the undefined ones take none.
    static func dataLength(of status: UInt8) -> Int {
        switch status {
        case 0xF2: 2
        case 0xF1, 0xF3: 1
        default: 0
        }
    }

    /// The message's name, a noun that takes an "s" for more than one.
    static func name(of status: UInt8) -> String {
        switch status {
        case 0xF1: "MIDI Time Code quarter frame"
        case 0xF2: "song position pointer"
        case 0xF3: "song select"
        case 0xF6: "tune request"
        case 0xF8: "timing clock"
        case 0xFA: "start message"
        case 0xFB: "continue message"
        case 0xFC: "stop message"
        case 0xFE: "active sensing message"
        case 0xF9, 0xFD: "undefined real-time message"
        default: "undefined system common message"
        }
    }
}
