/// Why the library index could not be used.
public enum LibraryIndexError: Error, Hashable, Sendable {
    /// The database file could not be opened or made (a folder missing and not creatable, no
    /// permission, a full disk).
    case cannotOpen(path: String, reason: String)
    /// SQLite failed while reading or writing it.
    case database(path: String, reason: String)
    /// SQLite found the file damaged while reading it: open it again with `replacingDamage`.
    case damaged(path: String, reason: String)
    /// The library folder could not be read.
    case unreadableLibrary(path: String, reason: String)
}

extension LibraryIndexError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path): cannot open the library index: \(reason)"
        case .database(let path, let reason): "\(path): the library index failed: \(reason)"
        case .damaged(let path, let reason): "\(path): the library index is damaged: \(reason)"
        case .unreadableLibrary(let path, let reason): "\(path): cannot read the library folder: \(reason)"
        }
    }
}
