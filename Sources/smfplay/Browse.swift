import ArgumentParser
import Configuration
import Foundation
import Library
import LibraryIndex
import Playback
import Resume
import SystemPackage
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

struct Browse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse the MIDI library and play from it; opens at the file played last.",
        discussion: CommandHelp.discussion(
            """
            Keys: ↑/↓/PgUp/PgDn/Home/End move; Enter or → opens a folder; Enter on a file \
            plays it and the files after it in its folder (or in the search results); P plays the selected folder \
            (everything under it); a adds the selection to the queue; / searches the whole library (names, folders, titles, lyrics; see `smfplay search`; a library never indexed is indexed meanwhile, and found as it is read); \
            ← or Backspace goes up a folder; ~ goes to the library's top; Esc goes back from the search results to the folder; q (or Esc in the folder) leaves; ? shows every key. \
            While music plays: the keys of `smfplay play`, b back to the browser (the music \
            goes on), q stop.
            """, examples: Browse.examples)
    )

    @Argument(
        help: ArgumentHelp(
            "The library folder to browse (default: --library, the configuration's library, else $XDG_MUSIC_DIR/MIDI).",
            valueName: "folder"), completion: .directory)
    var folder: String?

    @OptionGroup var library: LibraryOption

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        guard TerminalSession.isInteractive else {
            throw CommandFailure("smfplay browse needs a terminal; in a script, use smfplay play PATH or smfplay resume")
        }
        let configuration = try playback.configurationOption.load()
        playback.text.readNames(configuration: configuration)
        let root = try folder.map(LibraryOption.absolute) ?? library.existingRoot(configuration: configuration)
        guard root.isFolder else { throw CommandFailure("\(root.text): no such folder") }
        let messages = StatusMessages()
        let recorder = ResumeRecorder(stateFolder: XDGDirectories.current().stateFolder, libraryRoot: root, warn: messages.post)
        let interrupt = InterruptTrap()
        let database: LibraryDatabase?
        do {
            database = try LibraryIndexUpdate.open(root: root, warn: messages.post)
        } catch {
            messages.post("\(error.description); files' lengths are not shown")
            database = nil
        }
        let details = database.map { FileDetails(database: $0, root: root) }
        // A library without an index gets one, built while the user browses: `/` searches the whole
        // library as soon as it is read, and what is read so far meanwhile.
        let isIndexed = (try? database?.hasFiles(under: root)) == true
        let indexBuild =
            database != nil && !isIndexed
            ? IndexBuild(databasePath: LibraryIndexUpdate.databasePath(in: XDGDirectories.current()), root: root) : nil
        defer { indexBuild?.stop() }
        var session = BrowseSession(
            browser: LibraryBrowser(root: root, lastPlayed: recorder.lastPlayedFile), recorder: recorder,
            details: { details?.lookUp($0) }, messages: messages,
            cancellation: interrupt.cancellation, reportsUnderruns: playback.verbose, showsKeyboard: !playback.noKeyboard,
            makePlayer: { () throws(CommandFailure) -> Player in
                try playback.makePlayer(configuration: configuration, onProblem: messages.post)
            },
            searchLibrary: database.flatMap {
                isIndexed || indexBuild != nil ? Self.librarySearch(database: $0, root: root, messages: messages) : nil
            },
            indexBuild: indexBuild,
            textDecoding: playback.textDecoding(configuration: configuration),
            makeMediaKeys: { playback.makeMediaKeys(configuration: configuration, onProblem: messages.post) })
        session.run()
        if let signalStatus = interrupt.exitStatus { throw CommandFailure.stopped(status: signalStatus) }
    }

    /// A search of the library's index (the browser never waits for the index to be built: a
    /// search while it is finds what is read so far).
    static func librarySearch(database: LibraryDatabase, root: FilePath, messages: StatusMessages) -> (String) -> [FilePath] {
        { words in
            // A `-` typed alone finds nothing yet, rather than every file.
            guard SearchQuery.hasWordsToLookFor([words]) else { return [] }
            do throws(LibraryIndexError) {
                return try database.search(SearchQuery(words: [words], folder: root, limit: 2000)).map(\.path)
            } catch {
                messages.post(error.description)
                return []
            }
        }
    }
}

extension Browse: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, playback] }
}

extension Browse: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay browse", does: "the library, at the file played last"),
        (command: "smfplay browse ~/Music/Games", does: "another folder"),
    ]
}
