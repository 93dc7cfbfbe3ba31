import Files
import Foundation
import Library
import SystemPackage
import TestSupport
import Testing

@testable import Resume

#if canImport(Glibc)
    import Glibc
#endif

struct ResumeStoreTests {
    static func sampleState(libraryRoot: FilePath = "/home/zoë/Music/MIDI", place: Int = 1) -> ResumeState {
        ResumeState(
            libraryRoot: libraryRoot,
            files: [libraryRoot.appending("Chopin/Ballade No.1.mid"), "/tmp/Gymnopédie 1.mid", libraryRoot.appending("Bach/Prelude.mid")],
            order: [2, 0, 1], repeatMode: "all", shuffled: true,
            position: .init(
                place: place, seconds: 83.25, ticks: 15984,
                file: FileStamp(size: 20480, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 123_456_789)))
    }

    @Test func savedStateLoadsAsItWas() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath("smfplay"))
        let state = Self.sampleState()
        try store.save(state)
        // Another store on the same folder, as the next smfplay is.
        let loaded = ResumeStore(folder: folder.filePath("smfplay")).load()
        #expect(loaded == ResumeStore.Loaded(state: state, warning: nil))
        #expect(loaded.state?.current == .inLibrary("Chopin/Ballade No.1.mid"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("smfplay")).sorted() == ["state.sqlite", "state.sqlite-journal"])
    }

    @Test func aPositionAloneChangesOnlyThePosition() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        try store.save(Self.sampleState())
        let position = ResumeState.Position(place: 2, seconds: 12.5, ticks: 2400, file: nil)
        try store.savePosition(position)
        var expected = Self.sampleState()
        expected.position = position
        #expect(ResumeStore(folder: folder.filePath).load().state == expected)
    }

    /// What a position costs on disk, measured as the database's pages that change: the same few
    /// for a queue of one file as for one of 20,000 (the queue's pages are not written again).
    @Test func aPositionCostsTheSameForAnyQueue() throws {
        func pagesChanged(queueLength: Int) throws -> [Int] {
            let folder = try TemporaryFolder()
            let store = ResumeStore(folder: folder.filePath)
            let files = (0..<queueLength).map { FilePath("/music/Composer \($0 % 50)/Some rather long title of a piece \($0).mid") }
            try store.save(
                ResumeState(
                    libraryRoot: "/music", files: files, order: Array(files.indices), repeatMode: "off", shuffled: false,
                    position: .init(place: 0, seconds: 0, ticks: 0, file: nil)))
            var changes: [Int] = []
            for second in 1...3 {
                let before = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("state.sqlite"))))
                try store.savePosition(.init(place: 0, seconds: Double(second), ticks: second * 960, file: nil))
                let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("state.sqlite"))))
                #expect(after.count == before.count)
                let pages = stride(from: 0, to: min(before.count, after.count), by: 4096).map { $0..<min($0 + 4096, before.count, after.count) }
                changes.append(pages.filter { !before[$0].elementsEqual(after[$0]) }.count)
            }
            return changes
        }
        let one = try pagesChanged(queueLength: 1)
        let many = try pagesChanged(queueLength: 20_000)
        #expect(one == many)
        #expect(one.allSatisfy { $0 <= 2 }, "\(one)")
    }

    @Test func theLastPlayedFileIsTheOnePlayingOrTheLastOfAnEndedQueue() {
        var state = Self.sampleState(libraryRoot: "/nonexistent/MIDI")
        #expect(!state.hasEnded)
        #expect(state.lastPlayedFile(libraryRoot: "/nonexistent/Moved") == "/nonexistent/Moved/Chopin/Ballade No.1.mid")
        state.position.place = state.order.count
        #expect(state.hasEnded && state.current == nil)
        #expect(state.lastPlayedFile(libraryRoot: "/nonexistent/Moved") == "/tmp/Gymnopédie 1.mid")
    }

    @Test func namesThatAreNotUTF8KeepTheirBytes() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        // "ショパン.mid" in Shift-JIS, and a Latin-1 "é".
        let shiftJIS = FilePath(bytes: Array("/music/".utf8) + [0x83, 0x56, 0x83, 0x87, 0x83, 0x70, 0x83, 0x93] + Array(".mid".utf8))
        let latin1 = FilePath(bytes: Array("/music/Caf".utf8) + [0xE9] + Array(".mid".utf8))
        let state = ResumeState(
            libraryRoot: "/music", files: [shiftJIS, latin1], order: [0, 1], repeatMode: "off", shuffled: false,
            position: .init(place: 1, seconds: 1, ticks: 1, file: nil))
        try store.save(state)
        let loaded = try #require(ResumeStore(folder: folder.filePath).load().state)
        #expect(loaded.queue.map(\.stored.bytes) == [shiftJIS, latin1].map { Array($0.bytes.dropFirst("/music/".utf8.count)) })
        #expect(loaded.queue.map(\.description) == ["ショパン.mid", "Caf\\xE9.mid"])
    }

    @Test func noFileIsAFreshStart() throws {
        let folder = try TemporaryFolder()
        #expect(ResumeStore(folder: folder.filePath("never-created")).load() == ResumeStore.Loaded(state: nil, warning: nil))
    }

    @Test func aDamagedDatabaseIsMovedAsideWithAWarning() throws {
        let folder = try TemporaryFolder()
        let garbage = Array(repeating: UInt8(0x5A), count: 8192)
        try folder.create("state.sqlite", garbage)
        let store = ResumeStore(folder: folder.filePath)
        let loaded = store.load()
        #expect(loaded.state == nil)
        let warning = try #require(loaded.warning)
        #expect(
            warning.description.hasPrefix(
                "\(folder.file("state.sqlite")): cannot resume: the database is damaged; kept as \(folder.file("state.sqlite")).bad-"))
        let aside = try #require(try folder.contents().first { $0.hasPrefix("state.sqlite.bad-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file(aside))) == Data(garbage))
        // The next start is a fresh one without a word; a save works again.
        try store.save(Self.sampleState())
        #expect(ResumeStore(folder: folder.filePath).load() == ResumeStore.Loaded(state: Self.sampleState(), warning: nil))
    }

    @Test func anotherProgramsDatabaseIsMovedAside() throws {
        let folder = try TemporaryFolder()
        #expect(sqlite3Command(folder.file("state.sqlite"), "CREATE TABLE songs (name TEXT); INSERT INTO songs VALUES ('x');"))
        let loaded = ResumeStore(folder: folder.filePath).load()
        #expect(loaded.warning?.movedTo != nil)
        #expect(try folder.contents().contains { $0.hasPrefix("state.sqlite.bad-") })
    }

    // MARK: The state.json of older versions

    static func oldStateJSON(
        libraryRoot: String = "/home/zoë/Music/MIDI", version: Int = 1, queue: [String]? = nil,
        order: String = "[2, 0, 1]", place: String = "1", seconds: String = "83.25"
    ) -> String {
        let files = (queue ?? ["Chopin/Ballade No.1.mid", "/tmp/Gymnopédie 1.mid", "Bach/Prelude.mid"]).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {
              "file" : { "modifiedNanoseconds" : 123456789, "modifiedSeconds" : 1700000000, "size" : 20480 },
              "libraryRoot" : "\(libraryRoot)",
              "order" : \(order),
              "place" : \(place),
              "position" : { "seconds" : \(seconds), "ticks" : 15984 },
              "queue" : [ \(files) ],
              "repeatMode" : "all",
              "shuffled" : true,
              "version" : \(version)
            }
            """
    }

    @Test func anOldStateFileIsCarriedOverOnceAndRemoved() throws {
        let folder = try TemporaryFolder()
        try folder.create("state.json", Array(Self.oldStateJSON().utf8))
        let loaded = ResumeStore(folder: folder.filePath).load()
        #expect(loaded == ResumeStore.Loaded(state: Self.sampleState(), warning: nil))
        #expect(!FileManager.default.fileExists(atPath: folder.file("state.json")))
        #expect(ResumeStore(folder: folder.filePath).load() == ResumeStore.Loaded(state: Self.sampleState(), warning: nil))
    }

    struct Corruption: Sendable, CustomTestStringConvertible {
        let contents: String
        let reason: String
        var testDescription: String { reason }
    }

    static let corruptions: [Corruption] = [
        Corruption(contents: "{\"version\": 1, \"queue\": [", reason: "not a resume state smfplay can read"),
        Corruption(contents: "", reason: "not a resume state smfplay can read"),
        Corruption(contents: oldStateJSON(version: 2), reason: "format version 2, which this smfplay does not read"),
        Corruption(contents: oldStateJSON(place: "\"one\""), reason: "not a resume state smfplay can read"),
        Corruption(
            contents: oldStateJSON(queue: ["Chopin/Ballade No.1.mid", "/tmp/Gymnopédie 1.mid", "../../etc/passwd"]),
            reason: #""../../etc/passwd" is not a path inside the library"#),
        Corruption(contents: oldStateJSON(order: "[2, 0, 0]"), reason: "the order is not an arrangement of the queue's 3 files"),
        Corruption(contents: oldStateJSON(place: "4"), reason: "place 4 is outside the queue of 3 files"),
        Corruption(contents: oldStateJSON(seconds: "-1"), reason: "the position is negative or not a number"),
    ]

    @Test(arguments: corruptions)
    func aCorruptOldFileIsMovedAsideWithAWarning(_ corruption: Corruption) throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        try folder.create("state.json", Array(corruption.contents.utf8))
        let loaded = store.load()
        #expect(loaded.state == nil)
        #expect(loaded.warning?.reason == corruption.reason)
        let old = folder.file("state.json")
        #expect(loaded.warning?.description == "\(old): cannot resume: \(corruption.reason); kept as \(old).bad, starting afresh")
        #expect(try String(contentsOfFile: old + ".bad", encoding: .utf8) == corruption.contents)
        // The next load starts fresh without a word; a save works again.
        #expect(ResumeStore(folder: folder.filePath).load() == ResumeStore.Loaded(state: nil, warning: nil))
        try store.save(Self.sampleState())
        #expect(ResumeStore(folder: folder.filePath).load().state == Self.sampleState())
    }

    @Test func anInvalidStateIsNotSaved() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        var state = Self.sampleState()
        state.position.seconds = .nan
        #expect(throws: FileWriteError(path: store.path, reason: "not saving a resume state: the position is negative or not a number")) {
            try store.save(state)
        }
        #expect(ResumeStore(folder: folder.filePath).load().state == nil)
    }

    /// Root writes anywhere, so the child process becomes `nobody` first.
    @Test func aStateFolderThatCannotBeWrittenIsAnErrorNamingTheFile() async throws {
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            becomeUnprivilegedUser()
            do {
                try ResumeStore(folder: FilePath(folder)).save(ResumeStoreTests.sampleState())
                report("saved")
            } catch {
                report("\(error)")
            }
        }
        #expect(standardError(result).hasPrefix("\(folder.file("state.sqlite")): cannot write: "))
    }

    @Test func theQueueFollowsTheLibraryToItsNewFolder() throws {
        let old = try TemporaryFolder()
        let new = try TemporaryFolder()
        let stayed = try TemporaryFolder()
        let song = try old.create("Chopin/Ballade No.1.mid")
        let left = try stayed.create("Bach/Prelude.mid")
        let outside = try stayed.create("outside.mid")
        // Bach stays where the library was; Chopin moves with it.
        let state = ResumeState(
            libraryRoot: stayed.filePath,
            files: [FilePath(song.replacingOccurrences(of: old.path, with: stayed.path)), FilePath(left), FilePath(outside)],
            order: [0, 1, 2], repeatMode: "off", shuffled: false, position: .init(place: 0, seconds: 0, ticks: 0, file: nil))
        try FileManager.default.moveItem(atPath: old.path + "/Chopin", toPath: new.path + "/Chopin")
        #expect(state.queue == [.inLibrary("Chopin/Ballade No.1.mid"), .inLibrary("Bach/Prelude.mid"), .inLibrary("outside.mid")])
        #expect(state.files(libraryRoot: new.filePath) == [new.filePath("Chopin/Ballade No.1.mid"), FilePath(left), FilePath(outside)])
    }

    @Test func aChangedFileIsNoticed() throws {
        let folder = try TemporaryFolder()
        let path = try folder.create("song.mid", midiHeader)
        let stamp = try #require(FileStamp(ofFileAt: FilePath(path)))
        #expect(!stamp.hasChanged(fileAt: FilePath(path)))
        // Same size, another modification time.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(stamp.hasChanged(fileAt: FilePath(path)))
        let touched = try #require(FileStamp(ofFileAt: FilePath(path)))
        // Same modification time, another size.
        #expect(truncate(path, 4) == 0)
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(FileStamp(ofFileAt: FilePath(path))?.modifiedSeconds == touched.modifiedSeconds)
        #expect(touched.hasChanged(fileAt: FilePath(path)))
        try FileManager.default.removeItem(atPath: path)
        #expect(touched.hasChanged(fileAt: FilePath(path)))
    }
}

/// Runs Debian's `sqlite3` on a database file: another program's database, for the tests.
func sqlite3Command(_ path: String, _ sql: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    do {
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    } catch {
        return false
    }
}

struct ResumeLockTests {
    @Test func aSecondPlayerIsToldWhoPlays() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath("smfplay"))
        let lock = try store.lock()
        #expect(try String(contentsOfFile: store.lockFile.string, encoding: .utf8) == "\(getpid())\n")
        // A second opening of the lock file is refused, as another process would be.
        let error = #expect(throws: ResumeLockError.self) { try store.lock() }
        #expect(error == .heldByAnotherPlayer(lockFile: store.lockFile, pid: getpid()))
        #expect(error?.description == "another smfplay is already playing (pid \(getpid()))")
        withExtendedLifetime(lock) {}
    }

    @Test func theLockGoesWithItsHolder() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        try withExtendedLifetime(store.lock()) {}
        let second = try store.lock()
        #expect(second.lockFile == store.lockFile)
    }

    @Test func anotherProcessIsRefusedWhileThisOneHoldsTheLock() async throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        let lock = try store.lock()
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            do {
                _ = try ResumeStore(folder: FilePath(folder)).lock()
                report("locked")
            } catch {
                report("\(error)")
            }
        }
        #expect(standardError(result) == "another smfplay is already playing (pid \(getpid()))\n")
        withExtendedLifetime(lock) {}
    }

    @Test func anUnusableLockFolderIsAnErrorNamingTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.create("smfplay")
        let store = ResumeStore(folder: folder.filePath("smfplay"))
        #expect(throws: ResumeLockError.unusable(lockFile: store.lockFile, reason: "\(folder.file("smfplay")) is a file, not a folder")) {
            try store.lock()
        }
    }
}
