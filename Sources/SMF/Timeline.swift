/// Where each track starts on the song's single time line.
///
/// Tracks of formats 0 and 1 all start at tick 0. Format 2 tracks are
/// independent patterns played one after another: each starts where the
/// previous one ends.
public struct Timeline: Hashable, Sendable {
    /// The tick at which each track starts, by track index.
    public let trackStartTicks: [UInt64]

    public init(file: MIDIFile) {
        if file.format == .multipleTracksAsynchronous {
            var start: UInt64 = 0
            trackStartTicks = file.tracks.map { track in
                defer { start += UInt64(track.lengthInTicks) }
                return start
            }
        } else {
            trackStartTicks = Array(repeating: 0, count: file.tracks.count)
        }
    }

    /// The last tick of the song: the latest end of any track (End of Track included).
    public func endTick(of file: MIDIFile) -> UInt64 {
        zip(trackStartTicks, file.tracks).reduce(0) { max($0, $1.0 + UInt64($1.1.lengthInTicks)) }
    }
}
