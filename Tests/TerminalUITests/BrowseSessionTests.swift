import Foundation
import Library
import LibraryIndex
import Playback
import Resume
import SMF
import SystemPackage
import TestSupport
import Testing

@testable import TerminalUI

/// The browser's keys, without a terminal: what each does to the browser and what it asks for.
@Suite("Browse session keys")
struct BrowseSessionTests {
    /// What the sessions' player factory throws: these tests never play.
    struct NoPlayer: Error, CustomStringConvertible {
        let description = "no player in these tests"
    }

    /// A session on a library of two files and a folder; its player is never made.
    static func session(library: TemporaryFolder, state: TemporaryFolder) throws -> BrowseSession {
        try FileManager.default.createDirectory(atPath: library.file("Folk"), withIntermediateDirectories: true)
        for file in ["Bach.mid", "Chopin.mid", "Folk/Reel.mid"] {
            try Data("MThd".utf8).write(to: URL(fileURLWithPath: library.file(file)))
        }
        return BrowseSession(
            browser: LibraryBrowser(root: library.filePath),
            recorder: ResumeRecorder(store: ResumeStore(folder: state.filePath), libraryRoot: library.filePath, warn: { _ in }),
            details: { _ in nil }, messages: StatusMessages(),
            cancellation: Cancellation(), reportsUnderruns: false, showsKeyboard: false,
            makePlayer: { () throws -> Player in throw NoPlayer() })
    }

    @Test("filter, then Enter on a file: the filter closes and the file plays, with the files after it that match")
    func enterPlaysFilteredFile() throws {
        let library = try TemporaryFolder()
        let state = try TemporaryFolder()
        var session = try Self.session(library: library, state: state)
        for key in [Key.character("/"), .character("c"), .character("h"), .character("o")] {
            guard case .stay = session.handle(key) else {
                Issue.record("\(key) did more than filter")
                return
            }
        }
        guard case .play(let queue, let seconds) = session.handle(.enter) else {
            Issue.record("Enter did not play")
            return
        }
        #expect(queue.files == [library.filePath("Chopin.mid")])
        #expect(seconds == 0)
        // The filter is closed: keys are the browser's again.
        guard case .leave = session.handle(.character("q")) else {
            Issue.record("q did not leave")
            return
        }
    }

    @Test("a: adds the selection to the saved queue; in a second browser, which does not hold the state's lock, it says so and adds nothing")
    func addGoesToTheSavedQueueOfTheBrowserHoldingTheLock() throws {
        let library = try TemporaryFolder()
        let state = try TemporaryFolder()
        var first = try Self.session(library: library, state: state)
        var second = try Self.session(library: library, state: state)
        _ = first.handle(.character("a"))
        #expect(first.messages.latest?.hasPrefix("Added 1 file to the saved queue (1 in all)") == true, "\(first.messages.latest ?? "")")
        let saved = ResumeStore(folder: state.filePath).load().state
        #expect(saved?.queue == [.inLibrary("Folk/Reel.mid")])
        _ = second.handle(.character("a"))
        #expect(second.messages.latest?.hasPrefix("Not added: another smfplay is running") == true, "\(second.messages.latest ?? "")")
        #expect(ResumeStore(folder: state.filePath).load().state == saved)
    }

    /// A session on a library of three files with titles, searched through its library index.
    static func searchingSession(library: TemporaryFolder, state: TemporaryFolder) throws -> BrowseSession {
        try FileManager.default.createDirectory(atPath: library.file("Folk/Irish"), withIntermediateDirectories: true)
        for (file, title) in [("Bach.mid", "Prelude"), ("Folk/Irish/Reel.mid", "The Silver Spear"), ("Folk/Irish/Jig.mid", "Silver jig")] {
            var track = Track()
            track.append(.meta(.text(.trackName, Array(title.utf8))), atTick: 0)
            track.append(.noteOn(channel: 0, note: 60, velocity: 90), atTick: 0)
            track.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
            track.append(.meta(.endOfTrack), atTick: 480)
            let bytes = SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track]))
            try Data(bytes).write(to: URL(fileURLWithPath: library.file(file)))
        }
        let database = try LibraryDatabase(path: state.filePath("library.sqlite"))
        _ = try LibraryIndexer(database: database, workers: 1, textEncoding: nil).update(root: library.filePath)
        return BrowseSession(
            browser: LibraryBrowser(root: library.filePath),
            recorder: ResumeRecorder(store: ResumeStore(folder: state.filePath), libraryRoot: library.filePath, warn: { _ in }),
            details: { _ in nil }, messages: StatusMessages(),
            cancellation: Cancellation(), reportsUnderruns: false, showsKeyboard: false,
            makePlayer: { () throws -> Player in throw NoPlayer() },
            searchLibrary: { words in (try? database.search(SearchQuery(words: [words], folder: library.filePath)).map(\.path)) ?? [] })
    }

    @Test("with a library index, / searches the whole library: the results play like a folder, ← goes back to the folder")
    func slashSearchesTheWholeLibrary() throws {
        let library = try TemporaryFolder()
        let state = try TemporaryFolder()
        var session = try Self.searchingSession(library: library, state: state)
        for character in "/silver" { _ = session.handle(.character(character)) }
        #expect(session.browser.search == "silver")
        #expect(session.browser.visibleEntries.map(\.name) == ["Folk/Irish/Jig.mid", "Folk/Irish/Reel.mid"])
        _ = session.handle(.down)
        guard case .play(let queue, _) = session.handle(.enter) else {
            Issue.record("Enter did not play")
            return
        }
        #expect(queue.files == [library.filePath("Folk/Irish/Reel.mid")])
        _ = session.handle(.left)
        #expect(session.browser.search == nil && session.browser.visibleEntries.map(\.name) == ["Folk", "Bach.mid"])
    }

    @Test("Esc in search results, or in a folder's filter, goes back to the folder's list; Esc there (or q) leaves")
    func escapeLeavesTheResultsNotTheBrowser() throws {
        let library = try TemporaryFolder()
        let state = try TemporaryFolder()
        var searching = try Self.searchingSession(library: library, state: state)
        for character in "/silver" { _ = searching.handle(.character(character)) }
        // ↓ closes the search's line: the results stay, and the keys are the list's.
        _ = searching.handle(.down)
        #expect(searching.browser.search == "silver")
        guard case .stay = searching.handle(.escape) else {
            Issue.record("Esc in the search results left the browser")
            return
        }
        #expect(searching.browser.search == nil && searching.browser.visibleEntries.map(\.name) == ["Folk", "Bach.mid"])
        guard case .leave = searching.handle(.escape) else {
            Issue.record("Esc in the folder's list did not leave")
            return
        }

        let other = try TemporaryFolder()
        var filtering = try Self.session(library: other, state: try TemporaryFolder())
        for key in [Key.character("/"), .character("c"), .character("h"), .character("o"), .down] { _ = filtering.handle(key) }
        #expect(filtering.browser.visibleEntries.map(\.name) == ["Chopin.mid"])
        guard case .stay = filtering.handle(.escape) else {
            Issue.record("Esc in a filtered folder left the browser")
            return
        }
        #expect(filtering.browser.filter.isEmpty && filtering.browser.visibleEntries.map(\.name) == ["Folk", "Bach.mid", "Chopin.mid"])
        guard case .leave = filtering.handle(.character("q")) else {
            Issue.record("q did not leave")
            return
        }
    }

    @Test("filter, then Enter on a folder: the filter closes and the folder opens")
    func enterOpensFilteredFolder() throws {
        let library = try TemporaryFolder()
        let state = try TemporaryFolder()
        var session = try Self.session(library: library, state: state)
        for key in [Key.character("/"), .character("f"), .enter] {
            guard case .stay = session.handle(key) else {
                Issue.record("\(key) did more than filter")
                return
            }
        }
        #expect(session.browser.trail == ["Folk"])
        #expect(session.browser.selectedEntry?.name == "Reel.mid")
    }
}
