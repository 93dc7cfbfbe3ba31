import TOMLKit

/// The `[audio]` table: how `smfplay play` (and `browse`, `resume`) plays, and talks to the sound
/// server and the desktop.
public struct AudioSettings: Sendable, Equatable {
    /// Output latency in milliseconds: lower reacts faster to keys, higher survives a busy machine.
    public var latencyMilliseconds: Int
    public static let defaultLatencyMilliseconds = 50
    public static let latencyRange = 5...2000
    /// After a seek, strike again the notes held across it.
    public var chaseNotes: Bool
    /// The PulseAudio server's address; `nil` for `$PULSE_SERVER` or the desktop's.
    public var server: String?
    /// Offer the player to the desktop's media keys (MPRIS on the D-Bus session bus).
    public var mpris: Bool
    /// The synthesizers a song plays on, each on a core of its own, from its start; `nil` (auto):
    /// one, and more once one cannot keep up.
    public var cores: Int?
    public static let coresRange = 1...64
    /// How long play waits for a sound server that went away to come back (it retries, keeping its
    /// place) before it stops, in seconds; 0 stops at once.
    public var reconnectTimeoutSeconds: Int
    public static let defaultReconnectTimeoutSeconds = 60
    public static let reconnectTimeoutRange = 0...86_400

    public init(
        latencyMilliseconds: Int = AudioSettings.defaultLatencyMilliseconds, chaseNotes: Bool = false, server: String? = nil,
        mpris: Bool = true, cores: Int? = nil, reconnectTimeoutSeconds: Int = AudioSettings.defaultReconnectTimeoutSeconds
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.chaseNotes = chaseNotes
        self.server = server
        self.mpris = mpris
        self.cores = cores
        self.reconnectTimeoutSeconds = reconnectTimeoutSeconds
    }

    init(reading table: TableReader) {
        self.init()
        latencyMilliseconds = table.wholeNumber("latency_ms", default: latencyMilliseconds, in: Self.latencyRange)
        chaseNotes = table.flag("chase_notes", default: chaseNotes)
        mpris = table.flag("mpris", default: mpris)
        reconnectTimeoutSeconds = table.wholeNumber("reconnect_timeout", default: reconnectTimeoutSeconds, in: Self.reconnectTimeoutRange)
        cores = table.read(
            "cores", default: cores,
            expected: "\"auto\" or a whole number from \(Self.coresRange.lowerBound) to \(Self.coresRange.upperBound)"
        ) { value -> Int?? in
            if value.string == "auto" { return .some(nil) }
            guard let count = TableReader.wholeNumber(value), Self.coresRange.contains(count) else { return nil }
            return .some(count)
        }
        server = table.read("server", default: nil, expected: "a server address in quotes") { value -> String?? in
            guard let text = value.string, !text.isEmpty else { return nil }
            return .some(text)
        }
    }
}
