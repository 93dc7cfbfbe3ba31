import ArgumentParser
import Configuration
import Files
import Library
import SystemPackage
import TerminalUI

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy MIDI files received from elsewhere into the library's Inbox folder.",
        discussion: CommandHelp.discussion(
            """
            A file is taken for its content, not its name: one that does not start like a MIDI \
            file is refused with a message, the others are still imported, and the exit status \
            is 1. An archive (ZIP, LZH, 7z, RAR, tar) gives its songs, each copied on its own. \
            A name already in the folder gets a number, as in Song (2).mid: no file is ever \
            replaced. Each copy appears whole or not at all.
            """, examples: Import.examples)
    )

    @Argument(help: "MIDI files (.mid, .midi, .kar, .rmi, or any name).", completion: .file())
    var files: [String]

    @Option(
        help: ArgumentHelp("Copy into this folder instead of the library's Inbox; it is made if missing.", valueName: "folder"),
        completion: .directory)
    var into: String?

    @OptionGroup var library: LibraryOption

    @OptionGroup var configurationOption: ConfigurationOption

    func run() throws {
        let folder =
            try into.map(CommandLinePath.filePath)
            ?? library.root(configuration: configurationOption.load()).appending(LibraryImporter.inboxFolderName)
        let importer = LibraryImporter(folder: folder)
        var refused = false
        let files = files.map(CommandLinePath.filePath).flatMap { path in
            let (songs, problems) = Self.songs(in: path)
            for problem in problems { printError(problem.description) }
            refused = refused || !problems.isEmpty
            return songs
        }
        // A failure of the folder (it cannot be made or written) is the same for every file: said
        // once, with how many more it stopped.
        var lastProblem: String?
        var repeated = 0
        func sayRepeated() {
            if repeated > 0 { printError("\(repeated) more file\(repeated == 1 ? "" : "s") not imported, for the same reason") }
            repeated = 0
        }
        for (index, file) in files.enumerated() {
            do {
                print("\(file.text) → \(try importer.importFile(at: file).text)")
            } catch {
                refused = true
                if error.description == lastProblem {
                    repeated += 1
                    continue
                }
                sayRepeated()
                printError(error.description)
                lastProblem = error.description
                // Every file after it would fail the same way.
                if error.isDiskFull, index + 1 < files.count {
                    let left = files.count - index - 1
                    printError("the disk is full: \(left) more file\(left == 1 ? "" : "s") not imported; free some space and import them again")
                    break
                }
            }
        }
        sayRepeated()
        if refused { throw CommandFailure.alreadyReported }
    }
}

extension Import {
    /// An archive (or a folder in one) gives its songs, each imported on its own, and what it left
    /// out; anything else is taken as it is (a folder on disk is refused by the importer).
    static func songs(in path: FilePath) -> (songs: [FilePath], problems: [MIDIFileCollector.Problem]) {
        guard !path.isFolder, path.isFolderOrArchive else { return ([path], []) }
        var collector = MIDIFileCollector()
        collector.add(path: path)
        return (collector.files, collector.problems)
    }
}

extension Import: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [library, configurationOption] }
}

extension Import: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay import ~/Downloads/*.mid", does: "into the library's Inbox"),
        (command: "smfplay import x.mid --into ~/MIDI/Chopin", does: "into another folder"),
        (command: "smfplay import pack.lzh", does: "the songs in an archive"),
    ]
}
