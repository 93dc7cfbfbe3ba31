/// A command's help: what it does, the exit statuses (one rule for every command, see
/// ``ExitStatus``), and a few examples to start from, which end `--help` as they end a man page.
enum CommandHelp {
    /// A command line and what it does.
    typealias Example = (command: String, does: String)

    /// ArgumentParser prints a command's discussion before its usage and options, and has no
    /// place after them: `main` adds the examples to the end of `--help` (``helpEnding(of:)``);
    /// for generate-manual, which reads `--experimental-dump-help`, they are in the discussion,
    /// which is then one paragraph: man fills the lines of a paragraph, and warns of a blank one.
    static func discussion(_ text: String, examples: [Example]) -> String {
        guard CommandLine.arguments.contains("--experimental-dump-help") else { return text + "\n\n" + ExitStatus.helpLine }
        return text + " " + ExitStatus.helpLine + " Examples: " + examples.map { "\($0.command) (\($0.does))" }.joined(separator: "; ") + "."
    }

    /// What follows a command's `--help`.
    static func helpEnding(of examples: [Example]) -> String {
        "\n" + examplesText(examples)
    }

    private static func examplesText(_ examples: [Example]) -> String {
        let width = examples.map(\.command.count).max() ?? 0
        return "EXAMPLES:\n"
            + examples.map { "  " + $0.command.padding(toLength: width, withPad: " ", startingAt: 0) + "   " + $0.does }
            .joined(separator: "\n")
    }
}

/// A command whose help ends with examples.
protocol HasExamples {
    static var examples: [CommandHelp.Example] { get }
}
