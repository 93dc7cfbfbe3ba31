import GRDB
import Storage
import SystemPackage

/// The library index opened to read only, as found ready (smfplay's file, its tables up to date):
/// what most searches need. Opening it writes nothing and takes no lock, where opening a
/// ``LibraryDatabase`` writes (GRDB makes and drops a table to have a WAL file: a transaction and
/// three flushes, 6-7 ms of a 20 ms search).
public final class ReadyLibraryIndex: LibraryIndexReading {
    public let path: FilePath
    public let connections: IndexConnections

    /// The index at `path`, when it is ready; nil when it is missing, not ready, another program's,
    /// damaged or unreadable: ``LibraryDatabase/init(path:replacingDamage:)`` makes, mends or
    /// updates it, or says what is wrong.
    public init?(path: FilePath) {
        guard let reader = DatabaseFile.openReady(path, migrator: LibraryDatabase.migrator) else { return nil }
        self.path = path
        connections = IndexConnections(reader: reader)
    }
}
