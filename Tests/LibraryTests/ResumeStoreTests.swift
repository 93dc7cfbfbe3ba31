import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import Library

struct ResumeStoreTests {
    static func sampleState(libraryRoot: String = "/home/zoë/Music/MIDI") -> ResumeState {
        ResumeState(
            libraryRoot: libraryRoot,
            files: [libraryRoot + "/Chopin/Ballade No.1.mid", "/tmp/Gymnopédie 1.mid", libraryRoot + "/Bach/Prelude.mid"],
            order: [2, 0, 1], place: 1, position: .init(seconds: 83.25, ticks: 15984),
            file: FileStamp(size: 20480, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 123_456_789),
            repeatMode: "all", shuffled: true
        )
    }

    @Test func savedStateLoadsAsItWas() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path + "/smfplay")
        let state = Self.sampleState()
        try store.save(state)
        let loaded = store.load()
        #expect(loaded == ResumeStore.Loaded(state: state, warning: nil))
        #expect(loaded.state?.current == .inLibrary("Chopin/Ballade No.1.mid"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/smfplay") == ["state.json"])
    }

    @Test func theLastPlayedFileIsTheOnePlayingOrTheLastOfAnEndedQueue() {
        var state = Self.sampleState(libraryRoot: "/nonexistent/MIDI")
        #expect(!state.hasEnded)
        #expect(state.lastPlayedFile(libraryRoot: "/nonexistent/Moved") == "/nonexistent/Moved/Chopin/Ballade No.1.mid")
        state.place = state.order.count
        #expect(state.hasEnded && state.current == nil)
        #expect(state.lastPlayedFile(libraryRoot: "/nonexistent/Moved") == "/tmp/Gymnopédie 1.mid")
    }

    @Test func theFileIsStablePrettyJSONWithLibraryPathsRelative() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try store.save(Self.sampleState())
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text == """
        {
          "file" : {
            "modifiedNanoseconds" : 123456789,
            "modifiedSeconds" : 1700000000,
            "size" : 20480
          },
          "libraryRoot" : "/home/zoë/Music/MIDI",
          "order" : [
            2,
            0,
            1
          ],
          "place" : 1,
          "position" : {
            "seconds" : 83.25,
            "ticks" : 15984
          },
          "queue" : [
            "Chopin/Ballade No.1.mid",
            "/tmp/Gymnopédie 1.mid",
            "Bach/Prelude.mid"
          ],
          "repeatMode" : "all",
          "shuffled" : true,
          "version" : 1
        }

        """)
        try store.save(Self.sampleState())
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == text)
    }

    @Test func noFileIsAFreshStart() throws {
        let folder = try TemporaryFolder()
        #expect(ResumeStore(folder: folder.path + "/never-created").load() == ResumeStore.Loaded(state: nil, warning: nil))
    }

    struct Corruption: Sendable, CustomTestStringConvertible {
        let contents: String
        let reason: String
        var testDescription: String { reason }
    }

    static let corruptions: [Corruption] = {
        let valid = try! String(decoding: JSONEncoder().encode(sampleState()), as: UTF8.self)
        func replacing(_ old: String, with new: String) -> String {
            precondition(valid.contains(old))
            return valid.replacingOccurrences(of: old, with: new)
        }
        return [
            Corruption(contents: "{\"version\": 1, \"queue\": [", reason: "not JSON"),
            Corruption(contents: "", reason: "not JSON"),
            Corruption(contents: "[1, 2]", reason: "not a JSON object"),
            Corruption(contents: replacing("\"version\":1", with: "\"version\":2"), reason: "format version 2, but this smfplay reads version 1"),
            Corruption(contents: replacing("\"version\":1", with: "\"version\":\"1\""), reason: "version is not the kind of value it should be"),
            Corruption(contents: replacing("\"place\":1", with: "\"place\":\"one\""), reason: "place is not the kind of value it should be"),
            Corruption(contents: replacing("\"ticks\":15984", with: "\"tick\":15984"), reason: "position.ticks is missing"),
            Corruption(contents: replacing("\"Bach\\/Prelude.mid\"", with: "\"..\\/..\\/etc\\/passwd\""), reason: #"queue[2]: "../../etc/passwd" is not a path inside the library"#),
            Corruption(contents: replacing("\"order\":[2,0,1]", with: "\"order\":[2,0,0]"), reason: "order is not an arrangement of the queue's 3 files"),
            Corruption(contents: replacing("\"place\":1", with: "\"place\":4"), reason: "place 4 is outside the queue of 3 files"),
            Corruption(contents: replacing("\"seconds\":83.25", with: "\"seconds\":-1"), reason: "position is negative or not a number"),
        ]
    }()

    @Test(arguments: corruptions)
    func aCorruptFileIsMovedAsideWithAWarning(_ corruption: Corruption) throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try folder.create("state.json", Array(corruption.contents.utf8))
        let loaded = store.load()
        #expect(loaded.state == nil)
        #expect(loaded.warning?.reason == corruption.reason)
        #expect(loaded.warning?.description == "\(store.path): cannot resume: \(corruption.reason); kept as \(store.path).bad, starting afresh")
        #expect(try folder.contents() == ["state.json.bad"])
        #expect(try String(contentsOfFile: store.path + ".bad", encoding: .utf8) == corruption.contents)
        // The next load starts fresh without a word; a save works again.
        #expect(store.load() == ResumeStore.Loaded(state: nil, warning: nil))
        try store.save(Self.sampleState())
        #expect(store.load().state == Self.sampleState())
    }

    @Test func aFolderInPlaceOfTheFileIsMovedAside() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try folder.create("state.json/x")
        #expect(store.load().warning?.description == "\(store.path): cannot resume: a folder is in its place; kept as \(store.path).bad, starting afresh")
        #expect(try folder.contents() == ["state.json.bad"])
    }

    /// Root reads any file, so the child process becomes `nobody` first.
    @Test func anUnreadableFileIsMovedAside() async throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try store.save(Self.sampleState())
        chmod(store.path, 0o000)
        chmod(folder.path, 0o777)
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            becomeUnprivilegedUser()
            report(ResumeStore(folder: folder).load().warning?.description ?? "no warning")
        }
        #expect(standardError(result) == "\(store.path): cannot resume: permission denied; kept as \(store.path).bad, starting afresh\n")
        #expect(try folder.contents() == ["state.json.bad"])
    }

    @Test func aStateThatCannotBeMovedAsideSaysSo() async throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try folder.create("state.json", Array("garbage".utf8))
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            becomeUnprivilegedUser()
            report(ResumeStore(folder: folder).load().warning?.description ?? "no warning")
        }
        #expect(standardError(result) == "\(store.path): cannot resume: not JSON; could not be moved aside (permission denied), starting afresh\n")
    }

    @Test func anInvalidStateIsNotSaved() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        var state = Self.sampleState()
        state.position.seconds = .nan
        #expect(throws: FileWriteError(path: store.path, reason: "not saving a resume state whose position is negative or not a number")) { try store.save(state) }
        #expect(try folder.contents() == [])
    }

    @Test func theQueueFollowsTheLibraryToItsNewFolder() throws {
        let old = try TemporaryFolder()
        let new = try TemporaryFolder()
        let stayed = try TemporaryFolder()
        let song = try old.create("Chopin/Ballade No.1.mid")
        let left = try stayed.create("Bach/Prelude.mid")
        let outside = try stayed.create("outside.mid")
        // Bach stays where the library was; Chopin moves with it.
        let state = ResumeState(libraryRoot: stayed.path, files: [song.replacingOccurrences(of: old.path, with: stayed.path), left, outside],
                                order: [0, 1, 2], place: 0, position: .init(seconds: 0, ticks: 0), file: nil, repeatMode: "off", shuffled: false)
        try FileManager.default.moveItem(atPath: old.path + "/Chopin", toPath: new.path + "/Chopin")
        #expect(state.queue == [.inLibrary("Chopin/Ballade No.1.mid"), .inLibrary("Bach/Prelude.mid"), .inLibrary("outside.mid")])
        #expect(state.files(libraryRoot: new.path) == [new.path + "/Chopin/Ballade No.1.mid", left, outside])
    }

    @Test func aChangedFileIsNoticed() throws {
        let folder = try TemporaryFolder()
        let path = try folder.create("song.mid", midiHeader)
        let stamp = try #require(FileStamp(ofFileAt: path))
        #expect(!stamp.hasChanged(fileAt: path))
        // Same size, another modification time.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(stamp.hasChanged(fileAt: path))
        let touched = try #require(FileStamp(ofFileAt: path))
        // Same modification time, another size.
        #expect(truncate(path, 4) == 0)
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(FileStamp(ofFileAt: path)?.modifiedSeconds == touched.modifiedSeconds)
        #expect(touched.hasChanged(fileAt: path))
        try FileManager.default.removeItem(atPath: path)
        #expect(touched.hasChanged(fileAt: path))
    }
}

struct ResumeLockTests {
    @Test func aSecondPlayerIsToldWhoPlays() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path + "/smfplay")
        let lock = try store.lock()
        #expect(try String(contentsOfFile: store.lockFile, encoding: .utf8) == "\(getpid())\n")
        // A second opening of the lock file is refused, as another process would be.
        let error = #expect(throws: ResumeLockError.self) { try store.lock() }
        #expect(error == .heldByAnotherPlayer(lockFile: store.lockFile, pid: getpid()))
        #expect(error?.description == "another smfplay is already playing (pid \(getpid()))")
        withExtendedLifetime(lock) {}
    }

    @Test func theLockGoesWithItsHolder() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        try withExtendedLifetime(store.lock()) {}
        let second = try store.lock()
        #expect(second.lockFile == store.lockFile)
    }

    @Test func anotherProcessIsRefusedWhileThisOneHoldsTheLock() async throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.path)
        let lock = try store.lock()
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            do {
                _ = try ResumeStore(folder: folder).lock()
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
        let store = ResumeStore(folder: folder.path + "/smfplay")
        #expect(throws: ResumeLockError.unusable(lockFile: store.lockFile, reason: "Not a directory")) { try store.lock() }
    }
}
