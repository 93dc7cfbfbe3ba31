import ArgumentParser

/// `smfplay search` without `--play`, parsed without the 23 options of playing, which
/// ArgumentParser reflects on at every parse: a search is typed interactively and started
/// often, and those options were a quarter of its time (BENCHMARKS.md, "Library"). Only what a
/// search that prints reads: its own options, `--library`, `--text-encoding` and `--config`.
struct PlainSearch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: Search._commandName)

    @OptionGroup var options: SearchOptions

    @OptionGroup var library: LibraryOption

    @OptionGroup var text: TextEncodingOption

    @OptionGroup var configurationOption: ConfigurationOption

    /// `arguments` (without the program's name) as a plain search, when they are `search` and
    /// options of its own that parse and pass their checks; nil for anything else (`--play`, an
    /// option of playing, help, a mistake): `search` itself then parses them, and answers or
    /// says what is wrong as ever.
    static func parsed(_ arguments: [String]) -> PlainSearch? {
        guard arguments.first == Search._commandName, let search = try? parse(Array(arguments.dropFirst())),
            (try? search.checkArguments()) != nil
        else { return nil }
        return search
    }

    func run() throws {
        _ = try Search.find(options, library: library, text: text, configuration: configurationOption.load(), printing: true)
    }
}

extension PlainSearch: ArgumentChecks {
    var checkedGroups: [any ArgumentChecks] { [options, library, text, configurationOption] }
}
