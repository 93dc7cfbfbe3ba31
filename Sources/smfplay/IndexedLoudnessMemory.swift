import Configuration
import LibraryIndex
import Loudness
import Playback
import Synchronization

/// Songs' loudness kept in the library index (`$XDG_DATA_HOME/smfplay/library.sqlite`), for every
/// song, in the library or not. A cache: when the index cannot be read or written, one warning says
/// so and smfplay goes on measuring.
///
/// The index opens at the first look-up, not before: a render that only keeps what it measures
/// (no `--normalize`) holds its measurements until ``flush()``, after its synthesizers are gone,
/// so that SQLite's pages (4 MB) never sit on top of the SoundFont's in the render's peak memory.
final class IndexedLoudnessMemory: LoudnessMemory {
    private struct State {
        var database: LibraryDatabase?
        var isOpened = false
        var held: [(Loudness, SongSoundKey)] = []
        var warned = false
    }

    private let state = Mutex(State())
    private let warn: @Sendable (String) -> Void

    init(warn: @escaping @Sendable (String) -> Void) {
        self.warn = warn
    }

    func loudness(of key: SongSoundKey) -> Loudness? {
        state.withLock { state -> Loudness? in
            guard let database = opened(&state) else { return nil }
            do throws(LibraryIndexError) {
                return try database.loudness(content: key.content, sound: key.sound)
            } catch {
                warnOnce(error.description, &state)
                return nil
            }
        }
    }

    /// Kept at once when the index is open (a look-up opened it), else held until ``flush()``.
    func remember(_ loudness: Loudness, of key: SongSoundKey) {
        state.withLock { state in
            guard state.isOpened else {
                state.held.append((loudness, key))
                return
            }
            write([(loudness, key)], &state)
        }
    }

    /// Opens the index now (play opens it while the output connects); false, the warning said,
    /// when it cannot be opened.
    func open() -> Bool {
        state.withLock { opened(&$0) != nil }
    }

    /// Writes what is held, opening the index if need be.
    func flush() {
        state.withLock { state in
            let held = state.held
            state.held = []
            if !held.isEmpty { write(held, &state) }
        }
    }

    private func write(_ measurements: [(Loudness, SongSoundKey)], _ state: inout State) {
        guard let database = opened(&state) else { return }
        do throws(LibraryIndexError) {
            for (loudness, key) in measurements { try database.remember(loudness, content: key.content, sound: key.sound) }
        } catch {
            warnOnce(error.description, &state)
        }
    }

    private func opened(_ state: inout State) -> LibraryDatabase? {
        if !state.isOpened {
            state.isOpened = true
            do throws(LibraryIndexError) {
                let database = try LibraryDatabase(path: LibraryIndexUpdate.databasePath(in: XDGDirectories.current()))
                LibraryIndexUpdate.sayIfSetAside(database, warn: warn)
                state.database = database
            } catch {
                warnOnce(error.description, &state)
            }
        }
        return state.database
    }

    private func warnOnce(_ problem: String, _ state: inout State) {
        guard !state.warned else { return }
        state.warned = true
        warn("warning: \(problem); loudness is measured anew and not kept")
    }
}
