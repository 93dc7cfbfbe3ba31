import ArgumentParser
import LibraryIndex
import SMF
import SystemPackage

/// What `smfplay search` looks for and how it prints what it finds: its options other than
/// `--play` and those of playing (which ``PlainSearch`` does without).
struct SearchOptions: ParsableArguments {
    @Argument(help: "Words to look for.")
    var words: [String] = []

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Only files longer than this: seconds, m:ss or h:mm:ss.", valueName: "time"),
        transform: TimeArgument.init(parsing:))
    var longer: TimeArgument?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Only files shorter than this: seconds, m:ss or h:mm:ss.", valueName: "time"),
        transform: TimeArgument.init(parsing:))
    var shorter: TimeArgument?

    @Option(help: ArgumentHelp("Only songs written for this standard: gm, gs, xg or gm2.", valueName: "standard"))
    var mode: MIDIMode?

    @Flag(help: "Only files with lyrics.")
    var hasLyrics = false

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Show (and play) at most this many files, the best first; 0 for all of them.", valueName: "count")
    )
    var limit = 200

    @Flag(help: "Print the results as JSON.")
    var json = false

    func checkOwnArguments() throws {
        if longer == nil, shorter == nil, mode == nil, !hasLyrics, !SearchQuery.hasWordsToLookFor(words) {
            let given = words.isEmpty ? "" : "nothing to look for in \(words.map { "\"\($0)\"" }.joined(separator: " ")): "
            throw ValidationError(
                given + "give words to look for (three characters, or a letter or digit), or a filter (--longer, --shorter, --mode, --has-lyrics)")
        }
        if limit < 0 { throw ValidationError("--limit must be 0 (all) or more, not \(limit)") }
    }

    /// The question these options ask of the library folder `root`.
    func query(under root: FilePath) -> SearchQuery {
        SearchQuery(
            words: words, folder: root, minimumSeconds: longer?.seconds, maximumSeconds: shorter?.seconds, mode: mode?.rawValue,
            mustHaveLyrics: hasLyrics, limit: limit == 0 ? nil : limit)
    }
}

extension SearchOptions: ArgumentChecks {
}
