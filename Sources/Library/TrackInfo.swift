/// What the browser shows beside a MIDI file without reading it again.
public struct TrackInfo: Codable, Hashable, Sendable {
    public var durationSeconds: Double
    public var trackCount: Int

    public init(durationSeconds: Double, trackCount: Int) {
        self.durationSeconds = durationSeconds
        self.trackCount = trackCount
    }
}
