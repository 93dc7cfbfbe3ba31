import Foundation
import GRDB
import Storage
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The SQLite file of the library index (see ``DatabaseFile``: WAL, shared by several smfplay
/// processes; a damaged or foreign file is moved aside and a new one made, as the index can
/// always be built again).
public final class LibraryDatabase: LibraryIndexReading {
    public let path: FilePath
    let pool: any DatabaseWriter
    public var connections: IndexConnections { IndexConnections(reader: pool) }
    /// Where a damaged or foreign file found at `path` was moved; nil when none was.
    public let setAside: FilePath?

    /// Opens the index at `path`, or makes it. With `replacingDamage`, a file found damaged is
    /// moved aside first (as ``LibraryIndexError/damaged(path:reason:)`` from a search or an
    /// update asks: damage deep in a file shows only when its pages are read).
    public init(path: FilePath, replacingDamage: Bool = false) throws(LibraryIndexError) {
        self.path = path
        do {
            // The index can be rebuilt: a power cut may lose the last transactions, never the file.
            let opened = try DatabaseFile.open(
                path, access: .concurrentReads, migrator: Self.migrator, synchronous: "NORMAL",
                replacingDamage: replacingDamage)
            pool = opened.database
            setAside = opened.setAside
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
    }

    /// The tables. A change later is a new migration, never an edit of one that has shipped.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("files and their words") { db in
            try db.execute(
                sql: """
                    CREATE TABLE file (
                        id INTEGER PRIMARY KEY,
                        path BLOB NOT NULL UNIQUE,
                        size INTEGER NOT NULL,
                        modified_ns INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        problem TEXT,
                        duration REAL,
                        format INTEGER,
                        track_count INTEGER,
                        channels TEXT,
                        note_count INTEGER,
                        programs TEXT,
                        mode TEXT,
                        title TEXT,
                        copyright TEXT,
                        has_lyrics INTEGER NOT NULL DEFAULT 0,
                        words TEXT,
                        search_name TEXT NOT NULL DEFAULT ''
                    );
                    CREATE VIRTUAL TABLE search USING fts5(name, folders, title, words, tokenize = 'trigram');
                    CREATE VIRTUAL TABLE pairs USING fts5(name, rest, tokenize = 'unicode61 remove_diacritics 0');
                    """)
        }
        migrator.registerMigration("files known from the old cache") { db in
            try db.execute(sql: "ALTER TABLE file ADD COLUMN complete INTEGER NOT NULL DEFAULT 1")
        }
        // The texts were read in each file's own encoding (auto) until the encoding could be
        // chosen; those all ASCII (as many bytes as characters) read the same in any. The index on
        // the encoding answers at once whether any file was read in another (see
        // `needsReadingAgain(under:textEncoding:)`).
        migrator.registerMigration("the text encoding of each file") { db in
            try db.execute(
                sql: """
                    ALTER TABLE file ADD COLUMN text_encoding TEXT;
                    UPDATE file SET text_encoding = 'auto'
                        WHERE length(CAST(coalesce(title, '') || coalesce(copyright, '') || coalesce(words, '') AS BLOB))
                            != length(coalesce(title, '') || coalesce(copyright, '') || coalesce(words, ''));
                    CREATE INDEX file_text_encoding ON file (text_encoding);
                    CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
        }
        // RMID files' INFO artist, album and genre are kept and searched (in the full-text index's
        // title column, which needs no change). A row made before says nothing of them, and only
        // the file can tell whether it is an RMID file (its name need not end in .rmi): every row
        // is marked, and the next update reads again the marked files that start as RMID files do
        // and unmarks the others, the rest of the index as it was (rows, their order, the words).
        // The partial index answers at once whether any row is still marked.
        migrator.registerMigration("the artist, album and genre of RMID files") { db in
            try db.execute(
                sql: """
                    ALTER TABLE file ADD COLUMN artist TEXT;
                    ALTER TABLE file ADD COLUMN album TEXT;
                    ALTER TABLE file ADD COLUMN genre TEXT;
                    ALTER TABLE file ADD COLUMN before_rmid_info INTEGER NOT NULL DEFAULT 0;
                    UPDATE file SET before_rmid_info = 1;
                    CREATE INDEX file_before_rmid_info ON file (path) WHERE before_rmid_info = 1;
                    """)
        }
        // Songs' loudness as measured with a sound (``LibraryDatabase/loudness(content:sound:)``):
        // keyed by the song's bytes, not its place, so that files outside the library are kept too.
        migrator.registerMigration("the loudness of songs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE loudness (
                        content TEXT NOT NULL,
                        sound TEXT NOT NULL,
                        integrated_lufs REAL NOT NULL,
                        true_peak_dbtp REAL,
                        PRIMARY KEY (content, sound)
                    ) WITHOUT ROWID;
                    """)
        }
        // How long each measured song lasts, its weight in its folder's loudness (`--loudness
        // folder`). Measurements from before it have none: they go, and are measured again.
        migrator.registerMigration("the length of songs measured") { db in
            try db.execute(
                sql: """
                    DELETE FROM loudness;
                    ALTER TABLE loudness ADD COLUMN seconds REAL NOT NULL DEFAULT 0;
                    """)
        }
        // Each transaction writes its rows' words as a new segment of each full-text index, which
        // FTS5 merges once a level holds `automerge` of them (4 by default): 16 merges each word
        // about half as often. Inserting a first index's 100,000 rows took 2.9 s instead of 4.2 s
        // (Python's sqlite3, the same rows in the same batches of 1,000); searches were as fast
        // (the benchmark's queries) and find the same files, as merging changes only the layout.
        migrator.registerMigration("full-text segments merged sixteen at a time") { db in
            try db.execute(
                sql: """
                    INSERT INTO search (search, rank) VALUES ('automerge', 16);
                    INSERT INTO pairs (pairs, rank) VALUES ('automerge', 16);
                    """)
        }
        // The names alone, in a full-text index of their own: the files with every word in their
        // names, which a search lists first, are found there. Asked of `search`'s name column,
        // SQLite read every file's positions of each three letters, in the folders, titles and
        // lyrics too: a word in many folders and few names (`preludes`, `bach`) cost a search
        // 5-6 ms at 100,000 files, against 1 ms here (bench/library.sh's queries). It keeps no
        // copy of the names (`search` has them, which a row's removal gives back to it) nor their
        // lengths (no search ranks by them): 100,000 names went in in 0.36 s instead of 0.60 s.
        migrator.registerMigration("names in a full-text index of their own") { db in
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE names USING fts5(name, tokenize = 'trigram', content = '', columnsize = 0);
                    INSERT INTO names (names, rank) VALUES ('automerge', 16);
                    INSERT INTO names (rowid, name) SELECT rowid, name FROM search;
                    """)
        }
        // A karaoke file's `@T` and `@I` texts (its title, artist and notes) are searched since:
        // the files with lyrics (karaoke files among them) are read again by the next update.
        migrator.registerMigration("karaoke titles searched") { db in
            try db.execute(sql: "UPDATE file SET complete = 0 WHERE has_lyrics = 1")
        }
        return migrator
    }()

    /// Lets the connection that writes keep up to 32 MB of the file's pages (SQLite's default:
    /// 2 MB) and checkpoint its WAL every 64 MB (default: 4 MB), for as long as it is open: a large
    /// update then rewrites the pages its batches share less often. A first index of 100,000
    /// files made 260,000 page writes and 164,000 reads with both, 297,000 and 205,000 without
    /// (strace, release build).
    func prepareForLargeUpdate() throws(LibraryIndexError) {
        try write { db in try db.execute(sql: "PRAGMA cache_size = -32768") }
        try writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384") }
    }

    func write<Value>(_ body: (Database) throws -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try pool.write(body)
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` with the connection that writes, outside any transaction: for a writer that
    /// begins and commits its own.
    func writeWithoutTransaction<Value>(_ body: (Database) throws -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try pool.writeWithoutTransaction(body)
        } catch {
            throw failure(error)
        }
    }
}

/// The paths under a folder, as a range of byte strings: those from `folder/` up to, not
/// including, `folder0` (the byte after `/`), which an index on the path answers at once.
struct PathRange {
    let lower: Data
    let upper: Data

    init(folder: FilePath) {
        var bytes = folder.bytes
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        if bytes != [UInt8(ascii: "/")] { bytes.append(UInt8(ascii: "/")) }
        lower = Data(bytes)
        bytes[bytes.count - 1] += 1
        upper = Data(bytes)
    }
}
