/// Why the MPRIS service could not start. Playback does not depend on it: the player plays on
/// without media keys, and says why only when asked to (`--verbose`).
public enum MediaPlayerServiceError: Error, CustomStringConvertible, Sendable {
    /// No session bus to connect to (no `DBUS_SESSION_BUS_ADDRESS`, as over ssh, or a bus that
    /// does not answer).
    case noSessionBus(reason: String)
    /// The bus refused a name or the object, in sd-bus' words.
    case registrationFailed(what: String, reason: String)

    public var description: String {
        switch self {
        case .noSessionBus(let reason): "media keys (MPRIS) are off: no D-Bus session bus (\(reason))"
        case .registrationFailed(let what, let reason): "media keys (MPRIS) are off: the session bus refused \(what) (\(reason))"
        }
    }
}
