import Files
import SystemPackage
import TestSupport
import Testing

@testable import Playback
@testable import Resume

#if canImport(Glibc)
    import Glibc
#endif

/// What the recorder keeps of a queue: its files and place, but nothing of a queue holding the
/// song from standard input, which cannot be read again.
@Suite struct ResumeRecorderTests {
    static func snapshot(of queue: PlayQueue, hasEnded: Bool = false) -> PlayerSnapshot {
        PlayerSnapshot(
            item: queue.current, place: queue.place, queueLength: queue.order.count, heardSeconds: 2, heardTick: 960,
            durationSeconds: 60, isPaused: false, tempoBPM: nil, hasEnded: hasEnded, underruns: 0, pressedKeys: [], noteRange: nil)
    }

    @Test("a queue holding standard input: neither its songs nor its end are recorded, and the saved queue stays as it was")
    func aQueueWithStandardInputIsNotRecorded() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        let recorder = ResumeRecorder(store: store, libraryRoot: "/music", warn: { Issue.record("\($0)") })
        let files = PlayQueue(files: ["/music/a.mid", "/music/b.mid"])
        recorder.record(Self.snapshot(of: files), queue: files, placeChanged: true)
        let saved = try #require(store.load().state)
        #expect(saved.files(libraryRoot: "/music") == ["/music/a.mid", "/music/b.mid"])

        var piped = PlayQueue(items: [.standardInput, .file("/music/c.mid")])
        recorder.record(Self.snapshot(of: piped), queue: piped, placeChanged: true)
        piped.next()
        recorder.record(Self.snapshot(of: piped), queue: piped, placeChanged: true)
        piped.next()
        recorder.recordQueueEnd(of: piped)
        #expect(store.load().state == saved)
    }

    @Test("the queue recorded, played to its end: its end is recorded")
    func theEndOfTheQueueRecordedIsRecorded() throws {
        let folder = try TemporaryFolder()
        let store = ResumeStore(folder: folder.filePath)
        let recorder = ResumeRecorder(store: store, libraryRoot: "/music", warn: { Issue.record("\($0)") })
        var queue = PlayQueue(files: ["/music/a.mid"])
        recorder.record(Self.snapshot(of: queue), queue: queue, placeChanged: true)
        queue.next()
        recorder.recordQueueEnd(of: queue)
        #expect(store.load().state?.hasEnded == true)
    }
    /// A state folder that cannot be written (a read-only file system): one line says the player
    /// will not record where it stops; there was a second, saying it "cannot resume ... starting
    /// afresh", for a `play` that resumes nothing. Root writes anywhere: the child becomes `nobody`.
    @Test("a state folder that cannot be written is said once")
    func aStateFolderThatCannotBeWrittenIsSaidOnce() async throws {
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [folder = folder.path as String] in
            becomeUnprivilegedUser()
            var said: [String] = []
            _ = ResumeRecorder(store: ResumeStore(folder: FilePath(folder + "/smfplay")), libraryRoot: "/music", warn: { said.append($0) })
            report(said.joined(separator: "\n"))
        }
        let said = standardError(result).split(separator: "\n")
        #expect(said.count == 1 && said[0].hasSuffix("; this one will not record where it stops"), "\(said)")
    }
}
