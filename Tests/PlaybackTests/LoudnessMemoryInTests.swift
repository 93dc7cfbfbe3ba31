import Loudness
import Playback
import Synchronization

/// Songs' loudness kept in memory, for tests of what keeps and finds it.
final class LoudnessMemoryInTests: LoudnessMemory {
    private let kept = Mutex<[SongSoundKey: Loudness]>([:])

    func loudness(of key: SongSoundKey) -> Loudness? {
        kept.withLock { $0[key] }
    }

    func remember(_ loudness: Loudness, of key: SongSoundKey) {
        kept.withLock { $0[key] = loudness }
    }
}
