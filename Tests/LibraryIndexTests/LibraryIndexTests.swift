import Foundation
import SMF
import Synchronization
import SystemPackage
@_exported import TestSupport
import Testing

@testable import LibraryIndex

#if canImport(Glibc)
    import Glibc
#endif

/// The library index on real SQLite, over real folders of real MIDI files.
struct LibraryIndexTests {
    /// A MIDI file with a title, a copyright, lyrics if given, and `seconds` of one note.
    static func midi(title: String, copyright: String = "", lyrics: [String] = [], seconds: Double = 2, gs: Bool = false) -> Data {
        var track = Track()
        track.append(.meta(.text(.trackName, Array(title.utf8))), atTick: 0)
        if !copyright.isEmpty { track.append(.meta(.text(.copyright, Array(copyright.utf8))), atTick: 0) }
        if gs { track.append(.systemExclusive([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]), atTick: 0) }
        for (index, syllable) in lyrics.enumerated() { track.append(.meta(.text(.lyric, Array(syllable.utf8))), atTick: UInt32(index * 10)) }
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 100)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: UInt32(seconds * 960))
        track.append(.meta(.endOfTrack), atTick: UInt32(seconds * 960))
        return Data(SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
    }

    /// A library of real files in `folder/Library`, and a database beside it.
    struct World {
        let folder: TemporaryFolder
        var root: String { folder.file("Library") }
        var rootPath: FilePath { FilePath(root) }
        var databasePath: String { folder.file("index/library.sqlite") }

        init() throws {
            folder = try TemporaryFolder()
            try write("Chopin/Ballades/Ballade No.4 Op.52.mid", Self.song(title: "Ballade No.4", copyright: "Frédéric Chopin"))
            try write("Chopin/Études/Étude Op.10 No.3.mid", Self.song(title: "Tristesse", copyright: "Frédéric Chopin"))
            try write("ショパン/バラード第1番.mid", Self.song(title: "バラード 第1番 ト短調"))
            try write("Game/Dragon Quest/序曲.mid", Self.song(title: "序曲のマーチ", seconds: 40, gs: true))
            try write("Karaoke/Sakura.kar", Self.song(title: "Sakura", lyrics: ["さ", "く", "ら ", "さ", "く", "ら"]))
            try write("Karaoke/Ballade of the night.mid", Self.song(title: "Night", lyrics: ["ballade ", "in ", "the ", "dark"]))
            try write("Broken/not really.mid", Data("MThd but nothing more".utf8))
        }

        static func song(title: String, copyright: String = "", lyrics: [String] = [], seconds: Double = 2, gs: Bool = false) -> Data {
            LibraryIndexTests.midi(title: title, copyright: copyright, lyrics: lyrics, seconds: seconds, gs: gs)
        }

        func write(_ relative: String, _ data: Data) throws {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        }

        func database() throws -> LibraryDatabase { try LibraryDatabase(path: FilePath(databasePath)) }

        func update(_ database: LibraryDatabase? = nil) throws -> IndexSummary {
            try LibraryIndexer(database: try database ?? self.database(), workers: 2, textEncoding: nil).update(root: FilePath(root))
        }

        func search(_ words: [String], mode: String? = nil, lyrics: Bool = false, longer: Double? = nil) throws -> [String] {
            try database().search(SearchQuery(words: words, folder: FilePath(root), minimumSeconds: longer, mode: mode, mustHaveLyrics: lyrics))
                .map { String($0.path.string.dropFirst(root.count + 1)) }
        }
    }

    @Test func buildsThenReadsOnlyWhatChanged() throws {
        let world = try World()
        let first = try world.update()
        #expect(first.found == 7 && first.added == 7 && first.unchanged == 0)
        #expect(first.unreadable.count == 1 && first.unreadable[0].contains("not really.mid"))
        let again = try world.update()
        #expect(again.added == 0 && again.updated == 0 && again.removed == 0 && again.unchanged == 7)
        // Changed, removed, added.
        try world.write("Chopin/Ballades/Ballade No.4 Op.52.mid", World.song(title: "Ballade No.4 (revised)", seconds: 3))
        try FileManager.default.removeItem(atPath: world.root + "/Karaoke/Sakura.kar")
        try world.write("Satie/Gymnopédie No.1.mid", World.song(title: "Gymnopédie"))
        let later = try world.update()
        #expect(later.updated == 1 && later.removed == 1 && later.added == 1 && later.unchanged == 5)
        #expect(try world.search(["revised"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        #expect(try world.search(["sakura"]).isEmpty)
        #expect(try world.search(["gymnopedie"]) == ["Satie/Gymnopédie No.1.mid"])
    }

    /// Progress first counts the MIDI files as the folders are listed (nothing to read yet), then
    /// the files read of those to read; the last says every file read.
    @Test func progressCountsTheFilesFoundThenTheFilesRead() throws {
        let world = try World()
        let told = Mutex<[IndexProgress]>([])
        _ = try LibraryIndexer(database: try world.database(), workers: 2, textEncoding: nil).update(
            root: world.rootPath, progress: { progress in told.withLock { $0.append(progress) } })
        let progress = told.withLock { $0 }
        let listing = progress.prefix { $0.toRead == 0 }
        #expect(!listing.isEmpty && listing.allSatisfy { $0.read == 0 && $0.found <= 7 })
        #expect(listing.map(\.found).max() == 7)
        let reading = progress.dropFirst(listing.count)
        #expect(reading.first == IndexProgress(found: 7, toRead: 7, read: 0))
        #expect(reading.map(\.read).max() == 7 && reading.allSatisfy { $0.found == 7 && $0.toRead == 7 })
    }

    /// A Soft Karaoke file names its song and singer in `@T` text events, often nowhere else: they
    /// are searched, without their tags; its other header lines (`@K`, `@V`, `@L`) are not.
    @Test func karaokeTitlesAreSearched() throws {
        let world = try World()
        var track = Track()
        for text in ["@KMIDI KARAOKE FILE", "@V0100", "@LENGL", "@TYesterday Once More", "@TThe Carpenters", "@IKaraoke by someone", "\\When", " I"] {
            track.append(.meta(.text(.text, Array(text.utf8))), atTick: 0)
        }
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
        track.append(.meta(.endOfTrack), atTick: 480)
        try world.write(
            "Karaoke/track07.kar",
            Data(SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))))
        _ = try world.update()
        for words in [["carpenters"], ["yesterday", "once"], ["someone"]] {
            #expect(try world.search(words) == ["Karaoke/track07.kar"], "\(words)")
        }
        #expect(try world.search(["engl"]).isEmpty && world.search(["kmidi"]).isEmpty && world.search(["v0100"]).isEmpty)
    }

    @Test func accentsAndCaseDoNotMatter() throws {
        let world = try World()
        _ = try world.update()
        #expect(try world.search(["frederic"]).sorted() == ["Chopin/Ballades/Ballade No.4 Op.52.mid", "Chopin/Études/Étude Op.10 No.3.mid"])
        #expect(try world.search(["ETUDE"]) == ["Chopin/Études/Étude Op.10 No.3.mid"])
        #expect(try world.search(["FRÉDÉRIC", "tristesse"]) == ["Chopin/Études/Étude Op.10 No.3.mid"], "every word must be found")
    }

    @Test("words are found without the quotes, brackets and commas around them")
    func punctuationAroundWordsDoesNotMatter() throws {
        let world = try World()
        _ = try world.update()
        #expect(try world.search(["\"Ballade\"", "(Chopin),"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        #expect(try world.search(["「序曲」"]) == ["Game/Dragon Quest/序曲.mid"])
        #expect(try world.search(["op.52:"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
    }

    @Test func japaneseIsFoundByAnyPart() throws {
        let world = try World()
        _ = try world.update()
        #expect(try world.search(["バラード"]) == ["ショパン/バラード第1番.mid"])
        #expect(try world.search(["ショパ"]) == ["ショパン/バラード第1番.mid"], "a folder, by three characters")
        #expect(try world.search(["序曲"]) == ["Game/Dragon Quest/序曲.mid"], "two characters, in a name")
        #expect(try world.search(["マーチ"]) == ["Game/Dragon Quest/序曲.mid"], "in a title")
        #expect(try world.search(["さくら"]) == ["Karaoke/Sakura.kar"], "lyrics sung a syllable at a time are one text")
        #expect(try world.search(["ハラ"]).isEmpty, "voiced kana are other letters: ハ is not バ")
        #expect(try world.search(["序"]) == ["Game/Dragon Quest/序曲.mid"], "one character, starting a word")
        #expect(try world.search(["dq", "序曲"]).isEmpty, "both words must be found")
    }

    @Test("words are found in names and in lyrics; files found by name come in the library's order")
    func wordsInNamesAndLyrics() throws {
        let world = try World()
        _ = try world.update()
        // "Ballade" is in two names (one of them a song whose lyrics have it too): in the order indexed.
        let found = try world.search(["ballade"])
        #expect(found == ["Chopin/Ballades/Ballade No.4 Op.52.mid", "Karaoke/Ballade of the night.mid"])
        #expect(try world.search(["dark"]) == ["Karaoke/Ballade of the night.mid"], "lyrics are searched")
    }

    @Test("the files with every word in their names come first, then the others, each group in the library's order, under any limit")
    func nameMatchesComeFirstUnderALimit() throws {
        let world = try World()
        for (name, title) in [("A", "zebra crossing"), ("B zebra", "one"), ("C", "a zebra"), ("D zebra", "two"), ("E", "none")] {
            try world.write("Zoo/\(name).mid", World.song(title: title))
        }
        _ = try world.update()
        func search(limit: Int?) throws -> [String] {
            try world.database().search(SearchQuery(words: ["zebra"], folder: FilePath(world.root + "/Zoo"), limit: limit))
                .map { String($0.path.string.dropFirst(world.root.count + 5)) }
        }
        #expect(try search(limit: nil) == ["B zebra.mid", "D zebra.mid", "A.mid", "C.mid"])
        #expect(try search(limit: 3) == ["B zebra.mid", "D zebra.mid", "A.mid"])
        #expect(try search(limit: 2) == ["B zebra.mid", "D zebra.mid"])
        #expect(try search(limit: 1) == ["B zebra.mid"])
    }

    @Test("more files with the words in their names than the rest can be told apart from by row number: still named first, none twice")
    func manyNameMatchesComeFirst() throws {
        let world = try World()
        let song = World.song(title: "plain")
        let count = LibraryDatabase.longestExclusionList + 1
        for number in 0..<count { try world.write("Herd/\(String(format: "%05d", number)) gnu.mid", song) }
        try world.write("Herd/00000 a.mid", World.song(title: "the gnu song"))
        _ = try world.update()
        let found = try world.database().search(SearchQuery(words: ["gnu"], folder: FilePath(world.root + "/Herd"))).map {
            $0.path.lastComponent!.string
        }
        #expect(found.count == count + 1)
        #expect(found.last == "00000 a.mid", "the title-only match comes last: \(found.suffix(2))")
        #expect(Set(found).count == found.count)
    }

    @Test func filtersNarrowTheResults() throws {
        let world = try World()
        _ = try world.update()
        #expect(try world.search([], mode: "gs") == ["Game/Dragon Quest/序曲.mid"])
        #expect(try world.search([], longer: 30) == ["Game/Dragon Quest/序曲.mid"])
        #expect(try world.search([], lyrics: true).sorted() == ["Karaoke/Ballade of the night.mid", "Karaoke/Sakura.kar"])
        #expect(try world.search(["not really"]).isEmpty, "files that are not MIDI are not found")
    }

    @Test func aDamagedOrForeignDatabaseIsMovedAsideAndRebuilt() throws {
        for content in [Data(repeating: 0x5A, count: 8192), Data("SQLite format 3\0".utf8) + Data(repeating: 0xFF, count: 4096)] {
            let world = try World()
            try FileManager.default.createDirectory(atPath: world.folder.file("index"), withIntermediateDirectories: true)
            try content.write(to: URL(fileURLWithPath: world.databasePath))
            let database = try world.database()
            let aside = try #require(database.setAside)
            #expect(FileManager.default.contents(atPath: aside.string) == content, "the damaged file is kept")
            #expect(try world.update(database).added == 7)
        }
        // Another program's SQLite database.
        let world = try World()
        try FileManager.default.createDirectory(atPath: world.folder.file("index"), withIntermediateDirectories: true)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [world.databasePath, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let database = try world.database()
        #expect(database.setAside != nil)
        #expect(try world.update(database).added == 7)
    }

    @Test func twoIndexersAtOnceNeitherFailsNorLosesAnything() throws {
        let world = try World()
        for number in 0..<300 { try world.write("Many/Song \(number).mid", World.song(title: "Song number \(number)")) }
        let errors = Mutex<[String]>([])
        let (root, databasePath) = (world.root, world.databasePath)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                // Each with a connection of its own, as two processes have.
                _ = try LibraryIndexer(database: try LibraryDatabase(path: FilePath(databasePath)), workers: 2, textEncoding: nil).update(
                    root: FilePath(root))
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(try world.database().fileCount(under: world.rootPath) == 307)
        #expect(try world.search(["number 299"]) == ["Many/Song 299.mid"])
    }

    @Test func anUpdateStoppedHalfWayIsConsistentAndTheNextGoesOn() throws {
        let world = try World()
        for number in 0..<1000 { try world.write("Many/Song \(number).mid", World.song(title: "Song number \(number)")) }
        let database = try world.database()
        let calls = Mutex(0)
        let stopped = try LibraryIndexer(database: database, workers: 2, textEncoding: nil).update(
            root: world.rootPath,
            isCancelled: {
                calls.withLock { count in
                    count += 1
                    return count > 450
                }
            })
        #expect(stopped.wasCancelled)
        let kept = try database.fileCount(under: world.rootPath)
        #expect(kept > 0 && kept < 1007)
        let rest = try world.update(database)
        #expect(!rest.wasCancelled && rest.unchanged == kept && rest.added == 1007 - kept)
        #expect(try database.fileCount(under: world.rootPath) == 1007)
    }

    @Test("the browser's details: pending, then read in the background into the index, then ready")
    func detailsAreReadInTheBackgroundAndKept() throws {
        let world = try World()
        let database = try world.database()
        let details = FileDetails(database: database, root: world.rootPath)
        let ballade = world.root + "/Chopin/Ballades/Ballade No.4 Op.52.mid"
        #expect(details.lookUp(FilePath(ballade)) == .pending)
        var lookup = FileDetails.Lookup.pending
        for _ in 0..<200 where lookup == .pending {
            usleep(10_000)
            lookup = details.lookUp(FilePath(ballade))
        }
        guard case .ready(let seconds, let tracks) = lookup else {
            Issue.record("not read: \(lookup)")
            return
        }
        #expect(abs(seconds - 2) < 0.01 && tracks == 1)
        // It is in the index now: searches find it, and new details know it at once.
        #expect(try world.search(["ballade", "frederic"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"])
        #expect(FileDetails(database: database, root: world.rootPath).lookUp(FilePath(ballade)) == lookup)
        #expect(details.lookUp(world.rootPath.appending("gone.mid")) == .unreadable("no such file or directory"))
    }

    /// An old track-info.json that knows the ballade as it is (and a karaoke file as it was).
    static func writeOldCache(in world: World) throws -> (cache: String, ballade: String) {
        let ballade = world.root + "/Chopin/Ballades/Ballade No.4 Op.52.mid"
        let changed = world.root + "/Karaoke/Sakura.kar"
        func stamp(_ path: String) throws -> String {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = try #require(attributes[.size] as? Int)
            var info = stat()
            stat(path, &info)
            return "{\"size\": \(size), \"modifiedSeconds\": \(info.st_mtim.tv_sec), \"modifiedNanoseconds\": \(info.st_mtim.tv_nsec)}"
        }
        let json = """
            {"version": 1, "entries": {
              "\(ballade)": {"stamp": \(try stamp(ballade)), "info": {"durationSeconds": 123.5, "trackCount": 7}, "lastUse": 3},
              "\(changed)": {"stamp": {"size": 1, "modifiedSeconds": 1, "modifiedNanoseconds": 0}, "info": {"durationSeconds": 9, "trackCount": 1}, "lastUse": 1}
            }}
            """
        let cache = world.folder.file("track-info.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: cache))
        return (cache, ballade)
    }

    @Test("the old track-info.json is taken in once (names searchable, read whole at the next update) and deleted")
    func oldCacheIsMigrated() throws {
        let world = try World()
        let (cache, _) = try Self.writeOldCache(in: world)
        let database = try world.database()
        #expect(try OldTrackInfoCache.migrate(FilePath(cache), into: database, root: world.rootPath) == 1, "the changed file is not taken")
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(try world.search(["ballades"]) == ["Chopin/Ballades/Ballade No.4 Op.52.mid"], "found by its folder already")
        let update = try world.update(database)
        #expect(update.updated == 1 && update.added == 6, "the migrated file is read whole: \(update)")
        #expect(try world.search(["frederic"]).count == 2)
        #expect(try OldTrackInfoCache.migrate(FilePath(cache), into: database, root: world.rootPath) == 0)
    }

    // Apart from the update above: the browser's lookup reads the file in the background, and the
    // update would find it read or not depending on which came first.
    @Test("a file known only from the old track-info.json is pending in the browser, which reads it again")
    func oldCacheEntriesAreReadAgainInTheBrowser() throws {
        let world = try World()
        let (cache, ballade) = try Self.writeOldCache(in: world)
        let database = try world.database()
        #expect(try OldTrackInfoCache.migrate(FilePath(cache), into: database, root: world.rootPath) == 1)
        let details = FileDetails(database: database, root: world.rootPath)
        #expect(details.lookUp(FilePath(ballade)) == .pending, "the old cache's length is not taken as read")
        let deadline = Date().addingTimeInterval(10)
        var lookup = details.lookUp(FilePath(ballade))
        while lookup == .pending, Date() < deadline {
            usleep(10_000)
            lookup = details.lookUp(FilePath(ballade))
        }
        guard case .ready(let seconds, let tracks) = lookup else {
            Issue.record("not read again: \(lookup)")
            return
        }
        #expect(
            abs(seconds - 2) < 0.5 && tracks != 7,
            "read as \(seconds) s, \(tracks) tracks (the song is 2 s long; the old cache said 123.5 s, 7 tracks)")
    }

    @Test("refresh reads the new and changed files of a queue under the library, and leaves the rest of the index alone")
    func refreshTakesAQueue() throws {
        let world = try World()
        let database = try world.database()
        _ = try world.update(database)
        try world.write("New/Arrival.mid", World.song(title: "Just arrived"))
        try FileManager.default.removeItem(atPath: world.root + "/Karaoke/Sakura.kar")
        let outside = world.folder.file("Elsewhere.mid")
        try World.song(title: "Outside the library").write(to: URL(fileURLWithPath: outside))
        let summary = try LibraryIndexer(database: database, workers: 1, textEncoding: nil)
            .refresh(
                [
                    world.rootPath.appending("New/Arrival.mid"), world.rootPath.appending("Chopin/Ballades/Ballade No.4 Op.52.mid"),
                    FilePath(outside),
                    // A queue may hold a song twice: it is read, or counted, once.
                    world.rootPath.appending("New/Arrival.mid"), world.rootPath.appending("Chopin/Ballades/Ballade No.4 Op.52.mid"),
                ],
                root: world.rootPath)
        #expect(summary.added == 1 && summary.unchanged == 1 && summary.removed == 0, "\(summary)")
        #expect(try world.search(["arrived"]) == ["New/Arrival.mid"])
        #expect(try database.fileCount(under: world.rootPath) == 8, "the vanished karaoke file is for `index` to forget")
        #expect(try database.fileCount(under: world.folder.filePath) == 8, "nothing outside the library is taken")
    }

    /// "夜想曲" in Shift-JIS: kanji alone, which detection takes for Windows-1252 (see `TextDecoding`).
    static let nocturne: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8]

    static func midi(titleBytes: [UInt8]) -> Data {
        var track = Track()
        track.append(.meta(.text(.trackName, titleBytes)), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
        track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
        track.append(.meta(.endOfTrack), atTick: 480)
        return Data(SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
    }

    @Test(
        "texts are read in the encoding asked for; another reads again only the files whose texts are not ASCII; files read in passing follow the index's"
    )
    func textEncoding() throws {
        let world = try World()
        try world.write("Nocturnes/nocturne.mid", Self.midi(titleBytes: Self.nocturne))
        let database = try world.database()
        let first = try LibraryIndexer(database: database, workers: 2, textEncoding: .shiftJIS).update(root: world.rootPath)
        #expect(first.added == 8 && first.recoded == 0, "\(first)")
        #expect(try world.search(["夜想曲"]) == ["Nocturnes/nocturne.mid"])
        #expect(try database.textEncoding() == .shiftJIS)
        #expect(try !database.needsReadingAgain(under: world.rootPath, textEncoding: .shiftJIS))
        #expect(try database.needsReadingAgain(under: world.rootPath, textEncoding: nil))

        // Each file's own: those with texts outside ASCII are read again (the two with Frédéric,
        // the three Japanese ones, the nocturne); "Night" and the broken file are not.
        let auto = try LibraryIndexer(database: database, workers: 2, textEncoding: nil).update(root: world.rootPath)
        #expect(auto.recoded == 6 && auto.unchanged == 2 && auto.added == 0 && auto.updated == 0, "\(auto)")
        #expect(try world.search(["夜想曲"]).isEmpty, "read as Windows-1252")
        #expect(try world.search(["frederic"]).count == 2)
        #expect(try !database.needsReadingAgain(under: world.rootPath, textEncoding: nil))

        // Back in Shift-JIS; a file the browser shows is read in it too.
        _ = try LibraryIndexer(database: database, workers: 2, textEncoding: .shiftJIS).update(root: world.rootPath)
        try world.write("Nocturnes/second.mid", Self.midi(titleBytes: Self.nocturne))
        let details = FileDetails(database: database, root: world.rootPath)
        let second = world.rootPath.appending("Nocturnes/second.mid")
        for _ in 0..<200 where details.lookUp(second) == .pending { usleep(10_000) }
        #expect(try world.search(["夜想曲"]) == ["Nocturnes/nocturne.mid", "Nocturnes/second.mid"])
        #expect(try !database.needsReadingAgain(under: world.rootPath, textEncoding: .shiftJIS))
    }

    @Test("an index made before the encoding could be chosen: its files with texts outside ASCII count as read in auto, the others in any")
    func olderIndexIsMarkedAuto() throws {
        let world = try World()
        _ = try world.update()
        // Back to the tables as they were, the migration to come again.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [
            world.databasePath,
            """
            DROP INDEX file_text_encoding; ALTER TABLE file DROP COLUMN text_encoding; DROP TABLE setting;
            DELETE FROM grdb_migrations WHERE identifier = 'the text encoding of each file';
            """,
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let database = try world.database()
        #expect(database.setAside == nil)
        #expect(try database.textEncoding() == nil)
        #expect(try !database.needsReadingAgain(under: world.rootPath, textEncoding: nil))
        let summary = try LibraryIndexer(database: database, workers: 2, textEncoding: .cp1252).update(root: world.rootPath)
        #expect(summary.recoded == 5 && summary.unchanged == 2, "\(summary)")
    }

    @Test("results come in the library's natural order, whichever worker read each file first")
    func resultsComeInNaturalOrder() throws {
        let world = try World()
        for number in 1...40 { try world.write("Many/Song \(number).mid", World.song(title: "tune")) }
        _ = try world.update()
        #expect(try world.search(["tune"]) == (1...40).map { "Many/Song \($0).mid" })
    }
}
