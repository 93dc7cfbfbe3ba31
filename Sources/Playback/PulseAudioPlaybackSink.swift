import AudioOutput

/// The player's view of PulseAudio. Control calls that fail leave the reason
/// in `failure`, which the player's interface checks on every update.
public final class PulseAudioPlaybackSink: PlaybackSink {
    public let output: PulseAudioSink

    public init(_ output: PulseAudioSink) {
        self.output = output
    }

    public func pause() {
        try? output.pause()
    }

    public func resume() {
        try? output.resume()
    }

    public func flush(_ switchSource: () -> Void) {
        var switched = false
        try? output.flush {
            switchSource()
            switched = true
        }
        // The source must move even when the server could not drop its buffer.
        if !switched { switchSource() }
    }

    public func drain(atMostSeconds seconds: Double) {
        _ = try? output.drain(timeout: .milliseconds(Int(seconds * 1000)))
    }

    public func close() {
        output.close()
    }

    public var latencySeconds: Double {
        let (seconds, attoseconds) = output.latency.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    public var underrunCount: Int { output.underrunCount }

    public var normalPriorityReason: String? {
        switch output.realtimeScheduling {
        case .granted: nil
        case .pending: "it had not started"
        case .refused(let reason): reason
        }
    }

    public var failure: (any Error)? { output.failure }
}
