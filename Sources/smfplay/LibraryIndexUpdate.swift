import Configuration
import Foundation
import LibraryIndex
import SMF
import Synchronization
import SystemPackage
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the library index and brings it up to date, showing how it goes on standard error: a
/// line redrawn on a terminal (files read, of how many, time left), nothing otherwise but the end.
enum LibraryIndexUpdate {
    /// `$XDG_DATA_HOME/smfplay/library.sqlite`: the index and the files' facts (it can be rebuilt,
    /// but rebuilding 100,000 files takes minutes, so it is not kept with throw-away caches).
    static func databasePath(in directories: XDGDirectories) -> FilePath {
        directories.dataFolder.appending("library.sqlite")
    }

    /// Opens the index of the library at `root`, taking in the browser's old cache of file
    /// lengths the first time.
    static func open(root: FilePath, replacingDamage: Bool = false, warn: (String) -> Void = { printError($0) }) throws(LibraryIndexError)
        -> LibraryDatabase
    {
        let directories = XDGDirectories.current()
        let database = try LibraryDatabase(path: databasePath(in: directories), replacingDamage: replacingDamage)
        sayIfSetAside(database, warn: warn)
        _ = try OldTrackInfoCache.migrate(directories.cacheFolder.appending(OldTrackInfoCache.fileName), into: database, root: root)
        return database
    }

    /// Says where a damaged index found on opening `database` was moved, if one was.
    static func sayIfSetAside(_ database: LibraryDatabase, warn: (String) -> Void) {
        guard let aside = database.setAside else { return }
        warn("\(database.path.text): the library index was damaged or not smfplay's; kept as \(aside.text), and built anew")
    }

    /// The index opened to read only, when it is ready and the browser's old cache is gone (taking
    /// that in writes); nil otherwise: `withDatabase` opens it to write.
    static func openReady() -> ReadyLibraryIndex? {
        let directories = XDGDirectories.current()
        guard directories.cacheFolder.appending(OldTrackInfoCache.fileName).kind == nil else { return nil }
        return ReadyLibraryIndex(path: databasePath(in: directories))
    }

    /// Runs `body` on the index of the library at `root`; when SQLite finds the file damaged on
    /// the way, the file is moved aside (one warning) and `body` runs again on a new one.
    static func withDatabase<Value>(root: FilePath, _ body: (LibraryDatabase) throws(LibraryIndexError) -> Value) throws(LibraryIndexError) -> Value {
        do {
            return try body(try open(root: root))
        } catch .damaged {
            return try body(try open(root: root, replacingDamage: true))
        }
    }

    /// Updates the index of `root`, its files' texts read in `textEncoding` (nil: each file's own);
    /// with `interrupt`, Ctrl-C stops it with what is done kept.
    static func run(
        database: LibraryDatabase, root: FilePath, textEncoding: TextDecoding.Encoding?, quiet: Bool,
        interrupt: InterruptTrap?
    ) throws(LibraryIndexError) -> IndexSummary {
        let indexer = LibraryIndexer(database: database, workers: ProcessInfo.processInfo.activeProcessorCount, textEncoding: textEncoding)
        let line = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let cancellation = interrupt?.cancellation
        let summary = try indexer.update(
            root: root, isCancelled: { cancellation?.isCancelled ?? false },
            waiting: { process in
                let holder = process.map { "another smfplay (process \($0))" } ?? "another smfplay"
                printError("\(database.path.text): \(holder) is updating the library index; waiting for it to finish")
            }, progress: { progress in line.show(progress) })
        line.clear()
        return summary
    }

    /// Reads, on a thread of its own at the lowest priority, those of `files` under the library
    /// folder that the index does not know as they are now: `play` keeps the index up to date with
    /// what it plays. Only where there is an index already (one who never searches gets none), and
    /// silently: playing never waits for it nor fails because of it. In the index's text encoding:
    /// `smfplay index` and `smfplay search` change it, not what happens to be played.
    static func refreshInBackground(_ files: [FilePath], root: FilePath) {
        let path = databasePath(in: XDGDirectories.current())
        guard path.kind != nil else { return }
        Thread {
            // The lowest priority for this thread alone: on Linux a nice value is a thread's own,
            // and "this process" (0) means the calling thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            // Only an index found ready: a damaged one is left for `index` and `search`, which
            // set it aside saying so, where this would do it in silence.
            guard ReadyLibraryIndex(path: path) != nil else { return }
            do throws(LibraryIndexError) {
                let database = try LibraryDatabase(path: path)
                _ = try LibraryIndexer(database: database, workers: 1, textEncoding: try database.textEncoding()).refresh(files, root: root)
            } catch {
                // Silently, as said: the next update reads the files.
            }
        }.start()
    }

    /// "/music: 5000 MIDI files indexed (12 added, 3 changed, 1 removed, 4984 unchanged, 2 not readable as MIDI)".
    static func text(_ summary: IndexSummary, root: FilePath) -> String {
        var parts = ["\(summary.added) added", "\(summary.updated) changed", "\(summary.removed) removed", "\(summary.unchanged) unchanged"]
        if summary.recoded > 0 { parts.append("\(summary.recoded) read again in the new text encoding") }
        if summary.readForRMIDInfo > 0 {
            let count = summary.readForRMIDInfo
            parts.append("\(count) RMID file\(count == 1 ? "" : "s") read again for artists and albums")
        }
        if !summary.unreadable.isEmpty { parts.append("\(summary.unreadable.count) not readable as MIDI") }
        return "\(root.text): \(summary.found) MIDI file\(summary.found == 1 ? "" : "s") indexed (\(parts.joined(separator: ", ")))"
    }
}

/// A line of progress on standard error, redrawn at most ten times a second.
private final class ProgressLine: Sendable {
    private let enabled: Bool
    private let start = Date()
    private let lastDraw = Mutex(-1.0)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(_ progress: IndexProgress) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(start)
        let shouldDraw = lastDraw.withLock { last in
            guard elapsed - last >= 0.1 || progress.read == progress.toRead else { return false }
            last = elapsed
            return true
        }
        guard shouldDraw else { return }
        var text = "indexing: \(progress.found) MIDI files found"
        if progress.toRead > 0 {
            text += ", \(progress.read) of \(progress.toRead) read"
            if progress.read > 0, progress.read < progress.toRead {
                let left = elapsed / Double(progress.read) * Double(progress.toRead - progress.read)
                text += ", \(formatDuration(left).split(separator: ".").first ?? "") left"
            }
        }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
