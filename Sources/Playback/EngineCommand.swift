import Synthesis

/// What the interface asks of the audio thread, through the engine's command ring. The songs
/// and plans in a command are handed over with it: the engine gives each back, exactly once,
/// through its ring of retired objects (``RetiredObject``) when it is done with it.
enum EngineCommand: Sendable {
    /// Play this song now, from its start; with `fadeOut`, once what plays has faded out.
    case load(PlayingSong, generation: Int, fadeOut: Bool)
    /// Play this song as soon as the current one (and its tail) has ended.
    case queueNext(PlayingSong, generation: Int)
    /// Forget the song queued to follow: the queue changed under it (its repeat mode).
    case dropNext
    /// Follow a seek planned for the song of `generation` (dropped if another song plays by
    /// then); with `fadeOut`, once what plays has faded out. Seeks are numbered in the order
    /// they are posted.
    case seek(SeekPlan, generation: Int, number: Int, fadeOut: Bool)
    /// Go on with the song of `generation` played as `song` (the same song split across more
    /// synthesizers), from the plan's place: a seek, numbered with the seeks, that changes what
    /// renders the song. A plan ahead of what is heard waits until the song gets there (its
    /// fade-out ending there), so that nothing is heard twice or skipped.
    case replace(PlayingSong, plan: SeekPlan, generation: Int, number: Int, fadeOut: Bool)
    /// Release every note (before stopping).
    case releaseAll
    /// Pause: fade out, then stand still (the song does not move on, and the voices keep their
    /// place), rendering silence.
    case hold
    /// Go on after `hold`, fading back in: a voice taken up mid-waveform would click.
    case proceed
    /// The song of `generation` (playing, or queued to follow) is to be at this loudness gain: a
    /// playing song ramps to it, one not started starts at it.
    case loudnessGain(Float, generation: Int)

    /// Whether it waits for the sound to fade out first.
    var fadesOut: Bool {
        switch self {
        case .load(_, _, let fadeOut), .seek(_, _, _, let fadeOut), .replace(_, _, _, _, let fadeOut): fadeOut
        case .hold: true
        case .queueNext, .dropNext, .releaseAll, .proceed, .loudnessGain: false
        }
    }

    /// How many objects it hands over, each to come back as a ``RetiredObject``.
    var handedObjects: Int {
        switch self {
        case .load, .queueNext, .seek: 1
        case .replace: 2
        case .dropNext, .releaseAll, .hold, .proceed, .loudnessGain: 0
        }
    }
}
