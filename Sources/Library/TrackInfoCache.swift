#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Each MIDI file's ``TrackInfo``, worked out once and kept in
/// `$XDG_CACHE_HOME/smfplay/track-info.json` for as long as the file keeps its
/// size and modification time.
///
/// ``info(for:)`` never waits: a file not known yet is handed to a worker thread,
/// which calls `compute` (the executable reads the file with SMF), and the browser
/// asks again on its next redraw. A cache file that cannot be read is ignored
/// and rebuilt. ``save()`` keeps only entries whose files are still there
/// unchanged, and at most `capacity` of them, the most recently used.
///
/// A class: it owns the worker thread, which ends when the cache goes.
public final class TrackInfoCache: Sendable {
    public enum Lookup: Hashable, Sendable {
        case ready(TrackInfo)
        /// Being worked out; ask again later.
        case pending
        /// The file cannot be read as MIDI, or not at all: the reason.
        case unreadable(String)
    }

    public static let fileName = "track-info.json"
    /// The cache file's format; a file in another is ignored.
    static let formatVersion = 1
    /// Far larger than `capacity` entries take; anything beyond is not a cache file.
    static let sizeLimit = 64 << 20
    /// Files asked for and not yet worked out; beyond this the oldest requests are
    /// dropped (the browser asks again for what it still shows).
    static let pendingLimit = 256

    public let file: String
    public let capacity: Int
    private let work: TrackInfoWork

    /// Reads the cache file in `folder` (smfplay's cache folder). `compute` runs on
    /// the worker thread, one file at a time.
    public init(folder: String, capacity: Int = 20_000, compute: @escaping @Sendable (String) throws -> TrackInfo) {
        file = (folder.hasSuffix("/") ? folder : folder + "/") + Self.fileName
        self.capacity = capacity
        work = TrackInfoWork(entries: Self.load(file), compute: compute)
    }

    deinit {
        work.stop()
    }

    /// The file's info if it is known for the file as it is now; otherwise
    /// `.pending`, and the file is worked out in the background.
    public func info(for path: String) -> Lookup {
        guard let stamp = FileStamp(ofFileAt: path) else { return .unreadable(String(cString: strerror(errno)).lowercased()) }
        return work.lookUp(path, stamp: stamp)
    }

    /// Writes the cache (whole or not at all), pruned as the type's summary says.
    public func save() throws(FileWriteError) {
        let kept = work.entries()
            .filter { path, entry in !entry.stamp.hasChanged(fileAt: path) }
            .sorted { $0.value.lastUse > $1.value.lastUse }
            .prefix(capacity)
        let contents = CacheFile(version: Self.formatVersion, entries: Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(contents)
        } catch {
            throw FileWriteError(path: file, reason: "cannot encode the cache: \(error)")
        }
        try AtomicWrite.write(Array(data), to: file)
    }

    private static func load(_ file: String) -> [String: TrackInfoEntry] {
        guard let bytes = try? SmallFile.read(file, limit: sizeLimit),
              let contents = try? JSONDecoder().decode(CacheFile.self, from: Data(bytes)),
              contents.version == formatVersion
        else { return [:] }
        return contents.entries
    }

    private struct CacheFile: Codable {
        let version: Int
        let entries: [String: TrackInfoEntry]
    }
}

/// One file's result, for the file as its stamp describes it.
struct TrackInfoEntry: Codable, Hashable, Sendable {
    var stamp: FileStamp
    var info: TrackInfo?
    /// Why `compute` failed, when it did: a broken file stays broken until it changes.
    var error: String?
    /// When the entry was last looked up, as a count that grows with each use.
    var lastUse: Int

    var lookup: TrackInfoCache.Lookup {
        info.map(TrackInfoCache.Lookup.ready) ?? .unreadable(error ?? "unreadable")
    }
}

/// The entries and the requests, shared by the cache and its worker thread, under
/// one condition lock (the worker sleeps on it while there is nothing to do).
private final class TrackInfoWork: @unchecked Sendable {
    private let condition = NSCondition()
    private var entriesByPath: [String: TrackInfoEntry]
    private var pending: [String] = []
    /// The file the worker is reading now: asking for it again must not queue it twice.
    private var working: String?
    private var useCount: Int
    private var isRunning = false
    private var isStopped = false
    private let compute: @Sendable (String) throws -> TrackInfo

    init(entries: [String: TrackInfoEntry], compute: @escaping @Sendable (String) throws -> TrackInfo) {
        entriesByPath = entries
        useCount = entries.values.map(\.lastUse).max() ?? 0
        self.compute = compute
    }

    func lookUp(_ path: String, stamp: FileStamp) -> TrackInfoCache.Lookup {
        condition.lock()
        defer { condition.unlock() }
        if var entry = entriesByPath[path], entry.stamp == stamp {
            useCount += 1
            entry.lastUse = useCount
            entriesByPath[path] = entry
            return entry.lookup
        }
        if path == working { return .pending }
        // The latest request first: it is what the browser shows now.
        if let index = pending.firstIndex(of: path) { pending.remove(at: index) }
        pending.append(path)
        if pending.count > TrackInfoCache.pendingLimit { pending.removeFirst() }
        if !isRunning {
            isRunning = true
            Thread { [self] in run() }.start()
        }
        condition.signal()
        return .pending
    }

    func entries() -> [String: TrackInfoEntry] {
        condition.lock()
        defer { condition.unlock() }
        return entriesByPath
    }

    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while pending.isEmpty, !isStopped { condition.wait() }
            if isStopped { break }
            let path = pending.removeLast()
            working = path
            condition.unlock()
            // The stamp is taken first: a file that changes while it is read gets
            // the old stamp, so the next look-up works it out again.
            let stamp = FileStamp(ofFileAt: path)
            var entry: TrackInfoEntry?
            if let stamp {
                do {
                    entry = TrackInfoEntry(stamp: stamp, info: try compute(path), error: nil, lastUse: 0)
                } catch {
                    entry = TrackInfoEntry(stamp: stamp, info: nil, error: String(describing: error), lastUse: 0)
                }
            }
            condition.lock()
            working = nil
            if var entry {
                useCount += 1
                entry.lastUse = useCount
                entriesByPath[path] = entry
            }
        }
        condition.unlock()
    }
}
