import Files
import Foundation
import GRDB
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The browser's old cache, `$XDG_CACHE_HOME/smfplay/track-info.json` (each file's length and
/// track count, by path, size and modification time), taken into the index once and deleted: the
/// browser shows those files at once, searches find them by name and folder, and the next update
/// reads them whole.
public enum OldTrackInfoCache {
    public static let fileName: FilePath.Component = "track-info.json"
    /// What smfplay wrote was at most a few megabytes; anything larger is not that file.
    static let sizeLimit = 64 << 20

    private struct CacheFile: Decodable {
        let version: Int
        let entries: [String: Entry]
    }

    private struct Entry: Decodable {
        struct Stamp: Decodable {
            let size: Int64
            let modifiedSeconds: Int64
            let modifiedNanoseconds: Int64
        }

        struct Info: Decodable {
            let durationSeconds: Double
            let trackCount: Int
        }

        let stamp: Stamp
        let info: Info?
        let error: String?
    }

    /// Takes the entries of `file` (if it is there) whose files are still as they were and that the
    /// index does not hold yet, then deletes `file`. Returns how many were taken. A file that cannot
    /// be read as the old cache is deleted all the same: it only ever held what can be read again.
    public static func migrate(_ file: FilePath, into database: LibraryDatabase, root: FilePath) throws(LibraryIndexError) -> Int {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(file, limit: sizeLimit)
        } catch {
            if error != .missing { _ = file.withPlatformString { unlink($0) } }
            return 0
        }
        defer { _ = file.withPlatformString { unlink($0) } }
        guard let cache = try? JSONDecoder().decode(CacheFile.self, from: Data(bytes)), cache.version == 1 else { return 0 }
        var batch: [(file: IndexedFile, search: SearchRow, change: LibraryIndexer.Change)] = []
        for (text, entry) in cache.entries {
            let path = FilePath(text)
            guard let stamp = IndexStamp(path: path), stamp.size == entry.stamp.size,
                stamp.modifiedNanoseconds == entry.stamp.modifiedSeconds * 1_000_000_000 + entry.stamp.modifiedNanoseconds,
                (try? database.indexedFile(at: path)) ?? nil == nil
            else { continue }
            let search = SearchRow(path: path, folder: SearchFolder(relative: LibraryIndexer.relativeFolder(of: path, under: root)), facts: nil)
            var indexed = IndexedFile(
                path: Data(path.bytes), size: stamp.size, modifiedNanoseconds: stamp.modifiedNanoseconds,
                inode: stamp.inode, hasLyrics: false)
            indexed.duration = entry.info?.durationSeconds
            indexed.trackCount = entry.info?.trackCount
            indexed.problem = entry.info == nil ? entry.error ?? "unreadable" : nil
            indexed.searchName = search.name
            indexed.isComplete = false
            batch.append((indexed, search, .added))
        }
        try LibraryIndexer.write(batch, to: database)
        return batch.count
    }
}
