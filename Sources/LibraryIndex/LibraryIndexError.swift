import Files
import SystemPackage

/// Why the library index could not be used.
public enum LibraryIndexError: Error, Hashable, Sendable {
    /// The database file could not be opened or made (a folder missing and not creatable, no
    /// permission, a full disk).
    case cannotOpen(path: FilePath, reason: String)
    /// SQLite failed while reading or writing it.
    case database(path: FilePath, reason: String)
    /// SQLite found the file damaged while reading it: open it again with `replacingDamage`.
    case damaged(path: FilePath, reason: String)
    /// The library folder could not be read.
    case unreadableLibrary(path: FilePath, reason: String)
    /// The library folder holds no MIDI file, where the index at `database` knows `indexed`: a disk
    /// or share not mounted looks so, and forgetting them would mean reading them all again.
    case libraryEmptied(path: FilePath, indexed: Int, database: FilePath)
}

extension LibraryIndexError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path.text): cannot open the library index: \(reason)"
        case .database(let path, let reason): "\(path.text): the library index failed: \(reason)"
        case .damaged(let path, let reason): "\(path.text): the library index is damaged: \(reason)"
        case .unreadableLibrary(let path, let reason): "\(path.text): cannot read the library folder: \(reason)"
        case .libraryEmptied(let path, let indexed, let database):
            "\(path.text): no MIDI files in the library folder, where the index knows \(indexed) (is its disk mounted?); the index is kept as it was (delete \(database.text) to forget them)"
        }
    }
}
