import SystemPackage

/// What an MPRIS client asked for, handed to the play loop to do there. Calls that would fail
/// (a missing file, a rate out of range) were answered with an error already and never get here.
public enum MediaPlayerRequest: Equatable, Sendable {
    case play, pause, playPause
    /// Pause and go back to the start of the song: Play goes on from there.
    case stop
    case next, previous
    /// Relative to the position heard; past the song's end it is Next.
    case seek(byMicroseconds: Int64)
    /// To a place in the song numbered `trackNumber` (see `MediaPlayerTrack.number`); ignored when
    /// another song plays by then, or when the place is outside the song.
    case setPosition(trackNumber: Int, microseconds: Int64)
    /// A MIDI file to add to the end of the queue and play at once.
    case open(FilePath)
    case setLoopStatus(MediaPlayerState.LoopStatus)
    /// Shuffle the queue (the song playing goes on, the rest in a new order) or play it in order.
    case setShuffle(Bool)
    /// Within `MediaPlayerState.rateRange`.
    case setRate(Double)
    case quit
}
