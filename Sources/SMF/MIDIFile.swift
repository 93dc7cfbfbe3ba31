/// A Standard MIDI File: its header and its tracks, as written.
public struct MIDIFile: Hashable, Sendable {
    /// The header's format.
    public var format: MIDIFileFormat
    /// The header's division: what a tick means.
    public var timebase: Timebase
    /// The `MTrk` chunks in file order.
    public var tracks: [Track]

    public init(format: MIDIFileFormat, timebase: Timebase, tracks: [Track] = []) {
        self.format = format
        self.timebase = timebase
        self.tracks = tracks
    }
}
