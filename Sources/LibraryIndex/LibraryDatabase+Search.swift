import Foundation
import GRDB

extension LibraryDatabase {
    /// The full-text index compares three letters at a time (SQLite's trigram tokenizer, which
    /// finds any part of a word in any script); a word of one or two letters is looked up among
    /// the letter pairs of names, folders and titles (see ``SearchText/letterPairs(of:)``).
    static let shortestIndexedWord = 3

    /// The files that have every word of `query`: those with the words in their own names first,
    /// then by path.
    public func search(_ query: SearchQuery) throws(LibraryIndexError) -> [SearchResult] {
        var terms: [String] = []
        for term in SearchText.terms(of: query.words) where !terms.contains(term) { terms.append(term) }
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        // Each index is asked once, for all its words together: it intersects them itself.
        let long = terms.filter { $0.count >= Self.shortestIndexedWord }
        if !long.isEmpty {
            conditions.append("file.id IN (SELECT rowid FROM search WHERE search MATCH ?)")
            arguments.append(long.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND "))
        }
        // One letter: any pair it starts (or a word of it alone); two: that pair.
        let short = terms.filter { $0.count < Self.shortestIndexedWord }.map { String($0.filter(SearchText.isLetterOrDigit)) }.filter { !$0.isEmpty }
        if !short.isEmpty {
            conditions.append("file.id IN (SELECT rowid FROM pairs WHERE pairs MATCH ?)")
            arguments.append(short.map { "\"" + $0 + "\"" + ($0.count == 1 ? " *" : "") }.joined(separator: " AND "))
        }
        let nameHits = terms.isEmpty ? "0" : terms.map { _ in "(instr(search_name, ?) > 0)" }.joined(separator: " + ")
        let nameArguments: [(any DatabaseValueConvertible)?] = terms
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
            SELECT path, duration, mode, title, has_lyrics, \(nameHits) AS name_hits
            FROM file
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY name_hits DESC, path ASC
            """ + (query.limit.map { " LIMIT \($0)" } ?? "")
        // Bound in the order the placeholders appear: the selected columns first.
        let statementArguments = StatementArguments((nameArguments + arguments).map { $0?.databaseValue ?? .null })
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: statementArguments).map { row in
                let path: Data = row["path"]
                return SearchResult(path: String(decoding: path, as: UTF8.self), durationSeconds: row["duration"], mode: row["mode"],
                                    title: row["title"], hasLyrics: row["has_lyrics"], wordsInName: row["name_hits"])
            }
        }
    }
}
