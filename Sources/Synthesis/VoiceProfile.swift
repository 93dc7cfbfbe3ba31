/// What one note costs a synthesizer: the voices FluidSynth starts for it (one per matching
/// SoundFont zone; two for a stereo sample) and how long they sound.
public struct VoiceProfile: Hashable, Sendable {
    public var voices: Int
    /// The longest release of its voices, in seconds.
    public var releaseSeconds: Double
    /// Whether a voice loops its sample while the key is held (a sustained instrument); one that
    /// does not ends with its sample however long the key is held (drums, plucked sounds).
    public var loops: Bool
    /// The exclusive class of its voices, 0 for none: a note of a class cuts the others of it on
    /// its channel (hi-hats).
    public var exclusiveClass: Int = 0
    /// For a sound that does not loop, how long its voices last with the key held, when measured
    /// (``Synthesizer/soundingSeconds(channel:key:velocity:limit:)``): a kick drum's samples end
    /// within half a second, a ride cymbal's ring for seconds.
    public var soundingSeconds: Double?

    /// Voice-seconds for the note held `seconds`: a looped sound lasts while held (up to 10 s:
    /// beyond, notes are rare and their cost is a guess anyway) and its release (up to 2 s, which
    /// quiet voices seldom reach before FluidSynth drops them); a one-shot sound, while held and
    /// released, until its samples end (1.5 s when not measured). Each voice also costs 10 ms
    /// however short: starting it, and its first block.
    public func cost(heldFor seconds: Double) -> Double {
        let release = min(releaseSeconds, 2)
        let lasting = loops ? min(seconds, 10) + release : min(seconds + release, soundingSeconds ?? 1.5)
        return Double(voices) * (lasting + 0.01)
    }
}
