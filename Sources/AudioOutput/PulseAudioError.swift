/// Why sound cannot reach (or stopped reaching) the PulseAudio server. Every case names the server,
/// as the user gave it (`--server`, `$PULSE_SERVER`) or as libpulse found it.
public enum PulseAudioError: Error, Hashable, Sendable {
    /// Nothing answered at `address` within the connection deadline (2 seconds), or it refused.
    case noServer(address: String, reason: String)
    /// The connection broke during playback: the server quit, crashed or stopped answering.
    case connectionLost(address: String, reason: String)
    /// The server refused the playback stream, or removed it (its sink went away, say).
    case streamFailed(address: String, reason: String)

    /// The server the error is about.
    public var address: String {
        switch self {
        case .noServer(let address, _), .connectionLost(let address, _), .streamFailed(let address, _): address
        }
    }
}

extension PulseAudioError: CustomStringConvertible {
    /// One line, naming the server; when there is no server to play through, it says how to get
    /// the music anyway.
    public var description: String {
        switch self {
        case .noServer(let address, let reason):
            "no PulseAudio server at \(address) (\(reason)); start one, or use `smfplay render` to write a file instead"
        case .connectionLost(let address, let reason):
            "lost the PulseAudio server at \(address) (\(reason)); use `smfplay render` to write a file instead"
        case .streamFailed(let address, let reason):
            "the PulseAudio server at \(address) refused the playback stream: \(reason)"
        }
    }
}
