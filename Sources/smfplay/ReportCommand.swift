import ArgumentParser
import Files
import RenderJobs
import TerminalUI

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Sum up the reports of renders (render --report): counts, failures, audio hours, speed.",
        discussion: CommandHelp.discussion(
            """
            smfplay report report.shard-*.jsonl merges the reports of every shard of a cluster job: \
            each input counts once, by its last line (a rerun that found its output up to date keeps \
            the audio of the render before). Prints how many inputs were rendered, up to date and \
            failed, each failure with its error, the hours of audio and the render time. The exit \
            status is 1 when an input failed or a line is not a report.
            """, examples: ReportCommand.examples)
    )

    @Argument(help: "Report files written by render --report.", completion: .file())
    var files: [String]

    func run() throws {
        var summary = ReportSummary()
        var unreadable = false
        for file in files {
            let path = CommandLinePath.filePath(file)
            do {
                summary.add(try SmallFile.read(path, limit: 1 << 32), name: path.text)
            } catch {
                printError("\(path.text): cannot read: \(error)")
                unreadable = true
            }
        }
        print(summary.text)
        if unreadable || !summary.failures.isEmpty || !summary.unreadableLines.isEmpty { throw CommandFailure.alreadyReported }
    }
}

extension ReportCommand: HasExamples {
    static let examples: [CommandHelp.Example] = [
        (command: "smfplay report report.jsonl", does: "a render's report summed up"),
        (command: "smfplay report report.shard-*.jsonl", does: "a cluster job's, merged"),
    ]
}
