import ArgumentParser
import Configuration
import LibraryIndex
import TerminalUI

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build or bring up to date the library index that `smfplay search` looks in.",
        discussion: CommandHelp.discussion(
            """
            Reads every MIDI file under the library folder once (on all cores) and keeps what \
            search needs: names, folders, titles, RMID files' artists, albums and genres, lyrics, \
            length, standard (GM, GS, XG, GM2). \
            Later runs read only files that are new or changed and forget those that are gone. \
            Titles and lyrics are read with --text-encoding (default: the configuration's \
            text_encoding, else auto); when it changes, the files whose texts it reads otherwise \
            are read again. The index is $XDG_DATA_HOME/smfplay/library.sqlite. Ctrl-C keeps \
            what is done; the next run goes on from there.
            """, examples: IndexCommand.examples)
    )

    @OptionGroup var library: LibraryOption

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    func run() throws {
        let configuration = try configurationOption.load()
        let root = try library.existingRoot(configuration: configuration)
        let interrupt = InterruptTrap()
        let summary: IndexSummary
        do {
            summary = try LibraryIndexUpdate.withDatabase(root: root) { database throws(LibraryIndexError) in
                try LibraryIndexUpdate.run(
                    database: database, root: root, textEncoding: text.encoding(configuration: configuration), quiet: quiet,
                    interrupt: interrupt)
            }
        } catch {
            throw CommandFailure(error.description)
        }
        summary.problems.forEach { printError($0) }
        if let status = interrupt.exitStatus {
            printError("stopped; what was read is kept, and the next `smfplay index` goes on from there")
            throw CommandFailure.stopped(status: status)
        }
        if !quiet {
            summary.unreadable.forEach { printError("warning: \($0)") }
            print(LibraryIndexUpdate.text(summary, root: root))
        }
    }
}

extension IndexCommand: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, text, configurationOption] }
}

extension IndexCommand: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay index", does: "index the library"),
        (command: "smfplay index --library ~/MIDI", does: "index another library folder"),
    ]
}
