import ArgumentParser
import Configuration
import Foundation
import LibraryIndex
import Playback
import Resume
import SMF
import SystemPackage
import TerminalUI

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find MIDI files in the library by folder, name, title, artist or lyrics.",
        discussion: CommandHelp.discussion(
            """
            Every word must be found somewhere: in a folder name, the file name, the title, an \
            RMID file's artist, album or genre, the copyright, or the lyrics and text. Case and accents do not matter (frederic finds \
            Frédéric); Japanese is found by any part of three characters or more (ショパ finds \
            ショパン), and one or two characters are looked for in names, folders and titles. Files \
            with every word in their own names come first, then the others, each in the order the \
            library was indexed in. Prints the paths, one a line (--json: \
            everything known). A library not indexed yet is indexed first (see `smfplay index`), \
            and one whose titles and lyrics were read in another encoding than --text-encoding \
            (default: the configuration's text_encoding, else auto) is brought up to date first, \
            as is one made before RMID files' artists were indexed; otherwise, run `smfplay \
            index` when files change. Nothing found is status 1.
            """, examples: Search.examples)
    )

    @OptionGroup var options: SearchOptions

    @Flag(help: "Play what was found, in the order printed.")
    var play = false

    @OptionGroup var library: LibraryOption

    @OptionGroup var playback: PlaybackOptions

    func checkOwnArguments() throws {
        if options.json, play { throw ValidationError("--json prints the results; it cannot go with --play") }
    }

    func run() throws {
        let configuration = try playback.configurationOption.load()
        let (results, root) = try Self.find(options, library: library, text: playback.text, configuration: configuration, printing: !play)
        guard play else { return }
        let recorder = ResumeRecorder(stateFolder: XDGDirectories.current().stateFolder, libraryRoot: root, warn: { printError($0) })
        try Play.play(PlayQueue(files: results.map(\.path)), at: .seconds(0), recorder: recorder, playback: playback, configuration: configuration)
    }

    /// The files `options` find in the library folder (and that folder), printed unless they are
    /// to be played; a failure when none are found. The index is updated first when it must be.
    static func find(
        _ options: SearchOptions, library: LibraryOption, text: TextEncodingOption, configuration: Configuration, printing: Bool
    ) throws -> (results: [SearchResult], root: FilePath) {
        text.readNames(configuration: configuration)
        let root = try library.existingRoot(configuration: configuration)
        let results: [SearchResult]
        let query = options.query(under: root)
        let textEncoding = text.encoding(configuration: configuration)
        if let found = Self.searchReadyIndex(query, root: root, textEncoding: textEncoding) {
            results = found
        } else {
            do throws(LibraryIndexError) {
                results = try LibraryIndexUpdate.withDatabase(root: root) { database throws(LibraryIndexError) in
                    if let reason = try Self.reasonToUpdate(database, root: root, textEncoding: textEncoding) {
                        printError("\(root.text): \(reason)")
                        let summary = try LibraryIndexUpdate.run(
                            database: database, root: root, textEncoding: textEncoding, quiet: false, interrupt: nil)
                        summary.problems.forEach { printError($0) }
                        printError(LibraryIndexUpdate.text(summary, root: root))
                    }
                    return try database.search(query)
                }
            } catch {
                throw CommandFailure(error.description)
            }
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // Foundation prints an empty array pretty as `[`, a blank line and `]`.
            print(results.isEmpty ? "[]" : String(decoding: try encoder.encode(results), as: UTF8.self))
        } else if printing {
            // The paths' own bytes, as `find` prints them: another command opens them as they are.
            // In one write: a write a line made 200 system calls of a 12 ms search.
            writeToStandardOutput(results.flatMap { $0.path.bytes + [UInt8(ascii: "\n")] })
        }
        guard !results.isEmpty else {
            throw CommandFailure("nothing found")
        }
        if results.count == options.limit { printError("the first \(options.limit) found; --limit 0 shows them all") }
        return (results, root)
    }
}

extension Search {
    /// The results from the index opened to read only, when it is ready for this search (most
    /// searches: nothing written, no lock taken); nil when it is not or reading it failed, for the
    /// index opened to write to update, mend or say what is wrong.
    private static func searchReadyIndex(_ query: SearchQuery, root: FilePath, textEncoding: TextDecoding.Encoding?) -> [SearchResult]? {
        guard let index = LibraryIndexUpdate.openReady() else { return nil }
        do throws(LibraryIndexError) {
            guard try reasonToUpdate(index, root: root, textEncoding: textEncoding) == nil else { return nil }
            return try index.search(query)
        } catch {
            return nil
        }
    }

    /// Why the index must be updated before searching `root`, said to the user; nil when it need
    /// not. The index keeps titles and lyrics as read: searched in another encoding, it would not
    /// find what the user reads.
    private static func reasonToUpdate(_ index: some LibraryIndexReading, root: FilePath, textEncoding: TextDecoding.Encoding?)
        throws(LibraryIndexError)
        -> String?
    {
        if try !index.hasFiles(under: root) {
            "not indexed yet; indexing it first"
        } else if try index.needsReadingAgain(under: root, textEncoding: textEncoding) {
            "titles and lyrics read in another text encoding; reading them again in \(TextDecoding.Encoding.name(of: textEncoding)) first"
        } else if try index.hasFilesIndexedBeforeRMIDInfo(under: root) {
            "indexed before RMID files' artists, albums and genres were; reading RMID files again first"
        } else {
            nil
        }
    }
}

extension Search: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [options, library, playback] }
}

extension Search: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay search nocturne", does: "in names, titles or lyrics"),
        (command: "smfplay search chopin --longer 5:00", does: "longer than five minutes"),
        (command: "smfplay search --mode gs --play", does: "play every GS song"),
    ]
}
