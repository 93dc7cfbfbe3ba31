import Configuration
import LibraryIndex
import Loudness
import Playback
import Synchronization

/// Songs' loudness kept in the library index (`$XDG_DATA_HOME/smfplay/library.sqlite`), for every
/// song, in the library or not. A cache: when the index cannot be read or written, one warning says
/// so and the render goes on measuring.
final class IndexedLoudnessMemory: LoudnessMemory {
    private let database: LibraryDatabase
    private let warned = Atomic(false)
    private let warn: @Sendable (String) -> Void

    /// Nil, with a warning, when the index cannot be opened.
    init?(warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
        do {
            database = try LibraryDatabase(path: LibraryIndexUpdate.databasePath(in: XDGDirectories.current()))
        } catch {
            warn("warning: \(error.description); loudness measured now is not kept")
            return nil
        }
    }

    func loudness(of key: SongSoundKey) -> Loudness? {
        do {
            return try database.loudness(content: key.content, sound: key.sound)
        } catch {
            warnOnce(error)
            return nil
        }
    }

    func remember(_ loudness: Loudness, of key: SongSoundKey) {
        do {
            try database.remember(loudness, content: key.content, sound: key.sound)
        } catch {
            warnOnce(error)
        }
    }

    private func warnOnce(_ error: LibraryIndexError) {
        guard !warned.exchange(true, ordering: .relaxed) else { return }
        warn("warning: \(error.description); loudness is measured anew and not kept")
    }
}
