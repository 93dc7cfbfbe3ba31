import ArgumentParser
import Foundation
import Library
import SMF
import SystemPackage

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what is in MIDI files: duration, tracks, instruments, tempo, lyrics.",
        discussion: """
        A folder stands for every MIDI file under it. A file that cannot be read \
        prints its error, the others are still printed, and the exit status is 1.
        """
    )

    @Argument(help: "MIDI files (.mid, .midi, .kar, .rmi) or folders of them.", completion: .file())
    var paths: [String]

    @Flag(help: "Print one JSON document for programs instead of text.")
    var json = false

    @Flag(help: "Treat anything unusual in a file as an error.")
    var strict = false

    @Flag(help: "After each file, draw its notes as a piano roll under a keyboard, as wide as the terminal (in colour on a terminal, unless NO_COLOR is set).")
    var roll = false

    @Option(help: ArgumentHelp("The piano roll's height at most, in rows of time.", valueName: "rows"))
    var rollRows = KeyboardRoll.defaultMaximumRows

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    func validate() throws {
        if roll, json { throw ValidationError("--roll draws for a terminal; it cannot go with --json") }
        guard KeyboardRoll.maximumRowsAllowed.contains(rollRows) else {
            throw ValidationError("--roll-rows must be from \(KeyboardRoll.maximumRowsAllowed.lowerBound) to \(KeyboardRoll.maximumRowsAllowed.upperBound), not \(rollRows)")
        }
    }

    func run() throws {
        let configuration = try configurationOption.load()
        let reader = SMFReader(policy: strict ? .strict : .lenient)
        var reports: [FileReport] = []
        // The piano rolls' lines, by report.
        var rolls: [Int: [String]] = [:]
        for argument in paths {
            var collector = MIDIFileCollector()
            collector.add(path: CommandLinePath.filePath(argument))
            reports += collector.problems.map { FileReport(path: $0.path.text, error: $0.reason) }
            for path in collector.files {
                do {
                    let output = try reader.read(path: path)
                    let summary = SongSummary(song: Song(file: output.file), textDecoding: text.decoding(for: output.file, configuration: configuration))
                    let checksums = summary.midiMode.badChecksums.map { bad in
                        "a Roland message at \(MIDIModeDetection.time(bad.seconds)) (track \(bad.track)) has a wrong checksum: ignored, as a Sound Canvas would"
                    }
                    reports.append(FileReport(path: path.text, summary: summary,
                                              warnings: output.warnings.map(\.description) + omittedNote(output.omittedWarningCount) + checksums))
                    if roll { rolls[reports.count - 1] = rollLines(path: path, policy: reader.policy) }
                } catch {
                    reports.append(FileReport(path: path.text, error: error.reasonWithoutPath))
                }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(InfoDocument(files: reports)), as: UTF8.self))
        } else {
            print(reports.enumerated().map { index, report in
                ([report.text] + (rolls[index] ?? [])).joined(separator: "\n")
            }.joined(separator: "\n"))
        }
        if reports.contains(where: { $0.error != nil }) {
            if !json { reports.compactMap(\.errorLine).forEach { printError($0) } }
            throw ExitCode.failure
        }
    }

    /// The piano roll of a file read without error, indented as the report's lines.
    private func rollLines(path: FilePath, policy: SMFReadingPolicy) -> [String] {
        let indent = "  "
        // The last column left alone: text there makes some terminals wrap the line.
        let width = TerminalSession.columns - 1 - indent.count
        do {
            guard let roll = try KeyboardRoll.read(path: path, policy: policy, width: width, maximumRows: rollRows) else {
                return [indent + "(the terminal is too narrow for a keyboard)"]
            }
            return roll.lines(indent: indent, colours: isatty(STDOUT_FILENO) == 1 && TerminalCell.coloursWanted)
        } catch {
            return [indent + "roll: \(error.reasonWithoutPath)"]
        }
    }

    private func omittedNote(_ count: Int) -> [String] {
        count == 0 ? [] : ["\(count) more warnings not shown"]
    }
}

private extension SMFFileError {
    /// The message without the leading path, which the report shows on its own.
    var reasonWithoutPath: String {
        let text = description
        let prefix = path.text + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
