import Loudness

/// Where songs' measured loudness is kept between runs (the library index), so that a song is
/// measured once for each sound it is rendered with. Called from render workers.
public protocol LoudnessMemory: Sendable {
    /// The song's loudness at a synthesizer gain of 1 with the sound `key` names; nil when unknown.
    func loudness(of key: SongSoundKey) -> Loudness?
    /// Keeps a measurement (at a synthesizer gain of 1).
    func remember(_ loudness: Loudness, of key: SongSoundKey)
}
