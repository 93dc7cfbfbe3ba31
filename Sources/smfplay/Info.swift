import ArgumentParser
import Foundation
import Library
import SMF

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

    func run() throws {
        let reader = SMFReader(policy: strict ? .strict : .lenient)
        var reports: [FileReport] = []
        for argument in paths {
            var collector = MIDIFileCollector()
            collector.add(path: argument)
            reports += collector.problems.map { FileReport(path: $0.path, error: $0.reason) }
            for path in collector.files {
                do {
                    let output = try reader.read(path: path)
                    reports.append(FileReport(path: path, summary: SongSummary(song: Song(file: output.file)),
                                              warnings: output.warnings.map(\.description) + omittedNote(output.omittedWarningCount)))
                } catch {
                    reports.append(FileReport(path: path, error: error.reasonWithoutPath))
                }
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(InfoDocument(files: reports)), as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n"))
        }
        if reports.contains(where: { $0.error != nil }) {
            if !json { reports.compactMap(\.errorLine).forEach { printError($0) } }
            throw ExitCode.failure
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
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
