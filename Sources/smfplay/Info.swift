import ArgumentParser
import Configuration
import Files
import Foundation
import Library
import Playback
import SMF
import Synthesis
import SystemPackage
import TerminalUI

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print what is in MIDI files: duration, tracks, instruments, tempo, lyrics.",
        discussion: CommandHelp.discussion(
            """
            An RMID file's INFO texts (artist, album, genre, date, comment…) have lines of their \
            own; so does the sound bank the song will be heard with on top of the SoundFonts: its \
            file's own, or one beside it (same name, named like its folder, the folder's only \
            bank), and why; and the keys .smfplay.toml files in a song's folders set for it, each \
            with the file that set it. \
            A folder stands for every MIDI file under it. A file that cannot be read is named \
            with its error on standard error, the others are still printed, and the exit status \
            is 1 (with --json, the error is in its entry instead).
            """, examples: Info.examples)
    )

    @Argument(
        help:
            "MIDI files (.mid, .kar, .rmi, .midi2, .mus, .xmi, .hmp, .hmi, .rcp, .g36…), or folders or archives of them; - reads one from standard input.",
        completion: .file())
    var paths: [String]

    @Flag(help: "Print one JSON document for programs instead of text.")
    var json = false

    @Flag(help: "Treat anything unusual in a file as an error.")
    var strict = false

    @Flag(
        help:
            "After each file, draw its notes as a piano roll under a keyboard, as wide as the terminal (in colour on a terminal, unless NO_COLOR is set)."
    )
    var roll = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The piano roll's height at most, in rows of time.", valueName: "rows"))
    var rollRows = KeyboardRoll.defaultMaximumRows

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var sidecar: SidecarOption

    @OptionGroup var configurationOption: ConfigurationOption

    func checkOwnArguments() throws {
        if roll, json { throw ValidationError("--roll draws for a terminal; it cannot go with --json") }
        guard KeyboardRoll.maximumRowsAllowed.contains(rollRows) else {
            throw ValidationError(
                "--roll-rows must be from \(KeyboardRoll.maximumRowsAllowed.lowerBound) to \(KeyboardRoll.maximumRowsAllowed.upperBound), not \(rollRows)"
            )
        }
    }

    func run() throws {
        let configuration = try configurationOption.load()
        text.readNames(configuration: configuration)
        var settings = configuration.render
        sidecar.apply(to: &settings)
        let songBanks = settings.makeSongBankLookup()
        let reader = SMFReader(policy: strict ? .strict : .lenient)
        let folderSettings = Self.folderSettingsLookup(configuration: configuration)
        var reports: [FileReport] = []
        // The piano rolls' lines, by report.
        var rolls: [Int: [String]] = [:]
        // Standard input's bytes, read at the first `-`: it can be read only once.
        var piped: Result<[UInt8], StandardInputError>?
        for argument in paths {
            if StandardInput.isArgument(argument) {
                let bytes = piped ?? Result { () throws(StandardInputError) in try StandardInput.bytes() }
                piped = bytes
                do throws(StandardInputError) {
                    let output = try StandardInput.read(try bytes.get(), policy: reader.policy)
                    // Standard input has no folder: only a bank in the song itself, which `play -` and
                    // `render -` do not load (FluidSynth reads banks from files).
                    let soundBank = output.file.embeddedSoundBank.map {
                        var report = SongBankReport(embedded: SoundBankSummary(bank: $0, in: (try? bytes.get()) ?? []), sidecarNotUsed: nil)
                        report.notUsed = "a song from standard input plays without it"
                        return report
                    }
                    reports.append(report(output, path: StandardInput.name, soundBank: soundBank, configuration: configuration))
                    if roll {
                        rolls[reports.count - 1] = rollLines {
                            try KeyboardRoll.read(SMFEventStream(bytes: try bytes.get(), policy: reader.policy), width: $0, maximumRows: rollRows)
                        }
                    }
                } catch {
                    reports.append(FileReport(path: StandardInput.name, error: error.reason))
                }
                continue
            }
            var collector = MIDIFileCollector()
            collector.add(path: CommandLinePath.filePath(argument))
            reports += collector.problems.map { FileReport(path: $0.path.text, pathBytes: $0.path.base64BytesUnlessUTF8, error: $0.reason) }
            for path in collector.files {
                do {
                    let output = try reader.read(path: path)
                    var fileReport = report(
                        output, path: path.text, pathBytes: path.base64BytesUnlessUTF8,
                        soundBank: soundBank(output.file, path: path, lookup: songBanks), configuration: configuration)
                    Self.addFolderSettings(for: path, from: folderSettings, to: &fileReport)
                    reports.append(fileReport)
                    if roll {
                        rolls[reports.count - 1] = rollLines {
                            try KeyboardRoll.read(path: path, policy: reader.policy, width: $0, maximumRows: rollRows)
                        }
                    }
                } catch {
                    reports.append(FileReport(path: path.text, pathBytes: path.base64BytesUnlessUTF8, error: error.reasonWithoutPath))
                }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(InfoDocument(files: reports)), as: UTF8.self))
        } else {
            // A file that could not be read is said once, on standard error (below), not in the report too.
            let readable = reports.indices.filter { reports[$0].error == nil }
            if !readable.isEmpty {
                print(readable.map { index in ([reports[index].text] + (rolls[index] ?? [])).joined(separator: "\n") }.joined(separator: "\n"))
            }
        }
        if reports.contains(where: { $0.error != nil }) {
            if !json { reports.compactMap(\.errorLine).forEach { printError($0) } }
            throw CommandFailure.alreadyReported
        }
    }

    /// A file's report: its summary, and what the reader and the summary found wrong.
    private func report(
        _ output: SMFReader.Output, path: String, pathBytes: String? = nil, soundBank: SongBankReport?, configuration: Configuration
    ) -> FileReport {
        let summary = SongSummary(song: Song(file: output.file), textDecoding: text.decoding(for: output.file, configuration: configuration))
        let checksums = summary.midiMode.badChecksums.map { bad in
            "a Roland message at \(MIDIModeDetection.time(bad.seconds)) (track \(bad.track)) has a wrong checksum: ignored, as a Sound Canvas would"
        }
        return FileReport(
            path: path, pathBytes: pathBytes, summary: summary, soundBank: soundBank,
            warnings: output.warnings.map(\.description) + omittedNote(output.omittedWarningCount) + checksums)
    }

    /// The bank the song will be heard with, as `render` and `play` find it, and what it holds,
    /// read from its headers: an RMID file's own (its file opened again: the reader let go of its
    /// bytes), else one beside it. Nil when there is none, or the song's file is gone.
    private func soundBank(_ file: MIDIFile, path: FilePath, lookup: SongBankLookup) -> SongBankReport? {
        let sidecar = lookup.sidecar(forSongAt: path).flatMap { choice -> (path: FilePath, reason: SongBankReason)? in
            guard case .file(let bankPath) = choice.bank.source else { return nil }
            return (bankPath, choice.reason)
        }
        let sidecarName = sidecar.map { $0.path.lastComponent?.text ?? $0.path.text }
        if let bank = file.embeddedSoundBank {
            // An RMID file in an archive: its bank read from a copy of it.
            let memberCopy = try? PrivateTemporaryFile.copy(ofArchivedMember: path)
            guard let readable = try? ReadableFile(memberCopy?.path ?? path) else { return nil }
            return SongBankReport(embedded: SoundBankSummary(bank: bank, in: readable), sidecarNotUsed: sidecarName)
        }
        guard let sidecar, let sidecarName else { return nil }
        // A bank beside a song in an archive: read from a copy of it.
        let memberCopy = try? PrivateTemporaryFile.copy(ofArchivedMember: sidecar.path)
        let summary = Result { () throws(FileReadError) in SoundBankSummary(file: try ReadableFile(memberCopy?.path ?? sidecar.path)) }
        return SongBankReport(file: sidecarName, reason: sidecar.reason, summary: summary)
    }

    /// The piano roll of a file read without error, indented as the report's lines; `read` makes
    /// it as wide as it is given.
    private func rollLines(_ read: (_ width: Int) throws -> KeyboardRoll?) -> [String] {
        let indent = "  "
        // The last column left alone: text there makes some terminals wrap the line.
        let width = TerminalSession.columns - 1 - indent.count
        do {
            guard let roll = try read(width) else {
                return [indent + "(the terminal is too narrow for a keyboard)"]
            }
            return roll.lines(indent: indent, colours: isatty(STDOUT_FILENO) == 1 && TerminalCell.coloursWanted)
        } catch let error as SMFFileError {
            return [indent + "roll: \(error.reasonWithoutPath)"]
        } catch {
            return [indent + "roll: \(error)"]
        }
    }

    /// Folder files are looked for up to the configuration's library (info has no `--library`).
    private static func folderSettingsLookup(configuration: Configuration) -> FolderSettingsLookup {
        let directories = XDGDirectories.current()
        return FolderSettingsLookup(libraryRoot: configuration.libraryRoot(in: directories), locator: .standard(directories: directories))
    }

    /// What the `.smfplay.toml` files above the song set, each key with its file; or why they
    /// cannot be used, which is no error of the song's file (the exit status stays 0).
    private static func addFolderSettings(for path: FilePath, from lookup: FolderSettingsLookup, to report: inout FileReport) {
        do {
            let settings = try lookup.settings(forSongAt: path)
            let entries = settings.entries.map { entry in
                FileReport.FolderSetting(
                    key: entry.key.rawValue, value: entry.value, file: entry.file.text, shownFile: lookup.displayName(of: entry.file))
            }
            if !entries.isEmpty { report.folderSettings = entries }
            if let problem = settings.soundFontProblem { report.folderSettingsProblems = [problem.description] }
        } catch {
            report.folderSettingsProblems = [error.description]
        }
    }

    private func omittedNote(_ count: Int) -> [String] {
        count == 0 ? [] : ["\(count) more warnings not shown"]
    }
}

extension SMFFileError {
    /// The message without the leading path, which the report shows on its own.
    fileprivate var reasonWithoutPath: String {
        let text = description
        let prefix = path.text + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}

extension Info: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [text, sidecar, configurationOption] }
}

extension Info: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay info song.mid", does: "length, tracks, instruments, lyrics"),
        (command: "smfplay info --roll song.mid", does: "its notes under a keyboard"),
        (command: "smfplay info --json Library/", does: "a folder's files, for programs"),
    ]
}
