import SystemPackage

/// Reads settings out of a parsed configuration file and collects its problems.
///
/// Reading never stops at a problem: a bad value leaves the default in place and is
/// noted, so that `firstProblem()` can report whichever problem comes first in the
/// file, bad value or unknown key. A class, because every table's reader notes its
/// problems and its known keys in the same place.
final class DocumentReader {
    let path: FilePath
    let keyLines: TOMLKeyLines
    private var tables: [TableReader] = []
    private var problems: [ConfigurationError] = []

    init(path: FilePath, keyLines: TOMLKeyLines) {
        self.path = path
        self.keyLines = keyLines
    }

    func register(_ table: TableReader) {
        tables.append(table)
    }

    func report(_ problem: ConfigurationError) {
        problems.append(problem)
    }

    /// The first problem in the file, unknown keys included. Call it once every
    /// setting has been read: a key is unknown only if nothing asked for it.
    func firstProblem() -> ConfigurationError? {
        let knownKeys = tables.flatMap { table in table.knownKeys.map { table.key + [$0] } }
        var all = problems
        for table in tables {
            for name in table.unreadKeys {
                let key = table.key + [name]
                all.append(
                    .unknownKey(
                        path: path,
                        line: keyLines.line(of: key),
                        key: KeyPath.display(key),
                        suggestion: KeySuggestion.closest(to: key, among: knownKeys).map(KeyPath.display)
                    ))
            }
        }
        // Stable, so that problems on one line keep the order of the settings.
        return all.enumerated().min { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }?.element
    }
}
