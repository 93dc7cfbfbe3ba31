import WorkerThreads

/// How many synthesizers the player plays a song on, each on a core of its own, the song's keys
/// shared out among them (``NoteSplit``): more when one cannot render in real time.
public enum SongSplit: Equatable, Sendable {
    /// One, until the audio thread spends ``Player/overloadedRenderLoad`` of the time or more
    /// rendering (or the output runs dry at ``Player/strainedRenderLoad`` or more); then the song playing is split across up to `cores`,
    /// taking over a little ahead of where it is (its notes struck again), and so is every song after it.
    case whenNeeded(cores: Int)
    /// Every song on up to `cores` synthesizers from its start (1: never split).
    case always(cores: Int)

    /// `auto`: `.whenNeeded` on up to 4 cores, or the cores the process may use if fewer. Four
    /// are enough for any song on a laptop, and each part beyond the first costs the audio thread
    /// two thread crossings per chunk.
    public static var automatic: SongSplit { .whenNeeded(cores: min(4, WorkerThreads.processorCount)) }

    /// The most synthesizers a song plays on.
    public var cores: Int {
        switch self {
        case .whenNeeded(let cores), .always(let cores): max(1, cores)
        }
    }
}
