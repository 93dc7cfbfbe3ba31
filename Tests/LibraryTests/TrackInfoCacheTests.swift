import Foundation
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import Library

struct TrackInfoCacheTests {
    /// A stand-in for reading the file with SMF: the file's size as its duration,
    /// and a record of every file it was asked to read.
    final class Reader: Sendable {
        let reads = Mutex<[String]>([])

        func compute(_ path: String) throws -> TrackInfo {
            reads.withLock { $0.append((path as NSString).lastPathComponent) }
            guard let stamp = FileStamp(ofFileAt: path), stamp.size >= 4 else { throw BrokenFile() }
            return TrackInfo(durationSeconds: Double(stamp.size), trackCount: 2)
        }

        var readNames: [String] { reads.withLock { $0 } }
    }

    struct BrokenFile: Error, CustomStringConvertible {
        var description: String { "truncated header" }
    }

    func makeCache(_ folder: String, reader: Reader, capacity: Int = 100) -> TrackInfoCache {
        TrackInfoCache(folder: folder, capacity: capacity) { try reader.compute($0) }
    }

    /// Asks until the worker has answered, as the browser does on each redraw.
    /// The count only keeps a broken worker from hanging the test run.
    func settled(_ cache: TrackInfoCache, _ path: String) -> TrackInfoCache.Lookup {
        for _ in 0..<20_000 {
            let lookup = cache.info(for: path)
            if lookup != .pending { return lookup }
            usleep(1000)
        }
        return .pending
    }

    @Test func infoIsWorkedOutInTheBackgroundOnce() throws {
        let library = try TemporaryFolder()
        let song = try library.create("a.mid", midiHeader)
        let reader = Reader()
        let cache = makeCache(library.path + "/cache", reader: reader)
        #expect(settled(cache, song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
        #expect(cache.info(for: song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
        #expect(reader.readNames == ["a.mid"])
    }

    /// The browser redraws while the worker reads a file, and asks for it again
    /// each time: it is still read once. The asking is done from inside the read,
    /// so that it surely happens while the file is being read; a second read would
    /// start the moment the first is stored, before the test asks for b.
    @Test func askingAgainWhileTheFileIsReadDoesNotReadItTwice() throws {
        final class CacheReference: Sendable {
            let cache = Mutex<TrackInfoCache?>(nil)
        }
        let library = try TemporaryFolder()
        let a = try library.create("a.mid", midiHeader)
        let b = try library.create("b.mid", midiHeader)
        let reader = Reader()
        let reference = CacheReference()
        let cache = TrackInfoCache(folder: library.path) { path in
            if let cache = reference.cache.withLock({ $0 }) {
                for _ in 0..<3 { #expect(cache.info(for: path) == .pending) }
            }
            return try reader.compute(path)
        }
        reference.cache.withLock { $0 = cache }
        defer { reference.cache.withLock { $0 = nil } }
        _ = settled(cache, a)
        _ = settled(cache, b)
        #expect(reader.readNames == ["a.mid", "b.mid"])
    }

    @Test func savedInfoIsReadWithoutReadingTheFileAgain() throws {
        let library = try TemporaryFolder()
        let song = try library.create("a.mid", midiHeader)
        let first = Reader()
        let cache = makeCache(library.path + "/cache", reader: first)
        _ = settled(cache, song)
        try cache.save()
        let second = Reader()
        #expect(makeCache(library.path + "/cache", reader: second).info(for: song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
        #expect(second.readNames.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.path + "/cache") == [TrackInfoCache.fileName])
    }

    @Test func aFileWithAnotherModificationTimeOrSizeIsReadAgain() throws {
        let library = try TemporaryFolder()
        let song = try library.create("a.mid", midiHeader)
        let reader = Reader()
        let cache = makeCache(library.path, reader: reader)
        _ = settled(cache, song)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, song, &times, 0) == 0)
        #expect(cache.info(for: song) == .pending)
        #expect(settled(cache, song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
        #expect(truncate(song, 10) == 0)
        #expect(utimensat(AT_FDCWD, song, &times, 0) == 0)
        #expect(settled(cache, song) == .ready(TrackInfo(durationSeconds: 10, trackCount: 2)))
        #expect(reader.readNames == ["a.mid", "a.mid", "a.mid"])
    }

    @Test func aBrokenFileIsRememberedAsBroken() throws {
        let library = try TemporaryFolder()
        let broken = try library.create("broken.mid", [0x4D])
        let reader = Reader()
        let cache = makeCache(library.path, reader: reader)
        #expect(settled(cache, broken) == .unreadable("truncated header"))
        try cache.save()
        #expect(makeCache(library.path, reader: reader).info(for: broken) == .unreadable("truncated header"))
        #expect(reader.readNames == ["broken.mid"])
        #expect(cache.info(for: library.path + "/gone.mid") == .unreadable("no such file or directory"))
    }

    @Test(arguments: ["{\"version\": 1, \"entries\": {", "[]", "{\"version\": 99, \"entries\": {}}", "{\"version\": 1, \"entries\": {\"/a.mid\": 5}}"])
    func aCorruptCacheIsIgnoredAndRebuilt(_ contents: String) throws {
        let library = try TemporaryFolder()
        let song = try library.create("a.mid", midiHeader)
        try library.create("cache/" + TrackInfoCache.fileName, Array(contents.utf8))
        let reader = Reader()
        let cache = makeCache(library.path + "/cache", reader: reader)
        #expect(settled(cache, song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
        try cache.save()
        #expect(makeCache(library.path + "/cache", reader: Reader()).info(for: song) == .ready(TrackInfo(durationSeconds: 14, trackCount: 2)))
    }

    @Test func savingDropsGoneFilesAndKeepsTheMostRecentlyUsed() throws {
        let library = try TemporaryFolder()
        let songs = try ["a.mid", "b.mid", "c.mid", "d.mid"].map { try library.create($0, midiHeader) }
        let reader = Reader()
        let cache = makeCache(library.path + "/cache", reader: reader, capacity: 2)
        for song in songs { _ = settled(cache, song) }
        // Used again: a, then c (removed below). Of b and d, d was used last.
        _ = cache.info(for: songs[0])
        _ = cache.info(for: songs[2])
        try FileManager.default.removeItem(atPath: songs[2])
        try cache.save()
        let data = try Data(contentsOf: URL(fileURLWithPath: cache.file))
        let entries = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["entries"] as? [String: Any])
        #expect(Set(entries.keys) == [songs[0], songs[3]])
    }
}
