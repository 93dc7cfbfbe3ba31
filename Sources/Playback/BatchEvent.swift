import Loudness

/// What a batch render reports while it works, from its worker threads.
public enum BatchEvent: Sendable {
    /// A worker took up the job at this index.
    case started(index: Int)
    /// The fraction of the job's song rendered so far.
    case progress(index: Int, fraction: Double)
    /// Done; `warnings` are what the lenient reader found wrong with the MIDI file and got past
    /// (a track cut off, a wrong track count), so a damaged file in a batch does not pass unseen.
    case finished(index: Int, RenderResult, warnings: [String])
    case failed(index: Int, RenderError)
    /// Measuring only: the song's loudness with this sound was known (at a synthesizer gain of
    /// 1); nothing was done.
    case known(index: Int, Loudness)
}
