import Library
import SMF

extension TrackInfo {
    /// Reads a MIDI file for what the browser shows beside it (run by the cache's worker).
    @Sendable static func reading(_ path: String) throws -> TrackInfo {
        let file = try SMFReader().read(path: path).file
        return TrackInfo(durationSeconds: Song(file: file).duration, trackCount: file.tracks.count)
    }
}
