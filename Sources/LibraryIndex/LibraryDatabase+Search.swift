import Foundation
import GRDB

extension LibraryDatabase {
    /// The full-text index compares three letters at a time (SQLite's trigram tokenizer, which
    /// finds any part of a word in any script); a shorter word is looked for in the names,
    /// folders and titles one by one.
    static let shortestIndexedWord = 3

    /// The files that have every word of `query`, those with the words in their own names first,
    /// then by how well the rest matches (names and folders count more than lyrics), then by path.
    public func search(_ query: SearchQuery) throws(LibraryIndexError) -> [SearchResult] {
        let terms = SearchText.terms(of: query.words)
        let indexed = terms.filter { $0.count >= Self.shortestIndexedWord }
        let short = terms.filter { $0.count < Self.shortestIndexedWord }
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        // Bound in the order the placeholders appear: the selected columns first.
        let nameHits = terms.isEmpty ? "0" : terms.map { _ in "(instr(search.name, ?) > 0)" }.joined(separator: " + ")
        arguments += terms.map { $0 as any DatabaseValueConvertible }
        let score = indexed.isEmpty ? "0" : "bm25(search, 10.0, 5.0, 5.0, 1.0)"
        if !indexed.isEmpty {
            conditions.append("search MATCH ?")
            arguments.append(indexed.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND "))
        }
        for term in short {
            conditions.append("(instr(search.name, ?) > 0 OR instr(search.folders, ?) > 0 OR instr(search.title, ?) > 0)")
            arguments += [term, term, term]
        }
        let range = PathRange(folder: query.folder)
        conditions.append("file.path >= ? AND file.path < ? AND file.problem IS NULL")
        arguments += [range.lower, range.upper]
        if let minimum = query.minimumSeconds {
            conditions.append("file.duration >= ?")
            arguments.append(minimum)
        }
        if let maximum = query.maximumSeconds {
            conditions.append("file.duration <= ?")
            arguments.append(maximum)
        }
        if let mode = query.mode {
            conditions.append("file.mode = ?")
            arguments.append(mode)
        }
        if query.mustHaveLyrics { conditions.append("file.has_lyrics = 1") }
        let sql = """
            SELECT file.path, file.duration, file.mode, file.title, file.has_lyrics, \(nameHits) AS name_hits, \(score) AS score
            FROM search JOIN file ON file.id = search.rowid
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY name_hits DESC, score ASC, file.path ASC
            """
        let statementArguments = StatementArguments(arguments.map { $0?.databaseValue ?? .null })
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: statementArguments).map { row in
                let path: Data = row["path"]
                return SearchResult(path: String(decoding: path, as: UTF8.self), durationSeconds: row["duration"], mode: row["mode"],
                                    title: row["title"], hasLyrics: row["has_lyrics"], wordsInName: row["name_hits"])
            }
        }
    }
}
