import Foundation
import GRDB
import Files
import SystemPackage

extension LibraryDatabase {
    /// The full-text index compares three letters at a time (SQLite's trigram tokenizer, which
    /// finds any part of a word in any script); a word of one or two letters is looked up among
    /// the letter pairs of names, folders and titles (see ``SearchText/letterPairs(of:)``).
    static let shortestIndexedWord = 3

    /// The files that have every word of `query`: first those with every word in their own names,
    /// then the others, each in the order the library was indexed in (its folders' natural order,
    /// files added later after them).
    ///
    /// Each group is asked for in the order of the files' row numbers, which SQLite walks in the
    /// sets the full-text indexes return: with a limit, it stops after that many files, however
    /// many match (ordering 20,000 matches by path took longer than finding them).
    public func search(_ query: SearchQuery) throws(LibraryIndexError) -> [SearchResult] {
        var terms: [String] = []
        for term in SearchText.terms(of: query.words) where !terms.contains(term) { terms.append(term) }
        let everywhere = Self.wordConditions(terms, column: nil)
        let inName = Self.wordConditions(terms, column: "name")
        var filters: [String] = []
        var filterArguments: [(any DatabaseValueConvertible)?] = []
        let range = PathRange(folder: query.folder)
        filters.append("file.path >= ? AND file.path < ? AND file.problem IS NULL")
        filterArguments += [range.lower, range.upper]
        if let minimum = query.minimumSeconds {
            filters.append("file.duration >= ?")
            filterArguments.append(minimum)
        }
        if let maximum = query.maximumSeconds {
            filters.append("file.duration <= ?")
            filterArguments.append(maximum)
        }
        if let mode = query.mode {
            filters.append("file.mode = ?")
            filterArguments.append(mode)
        }
        if query.mustHaveLyrics { filters.append("file.has_lyrics = 1") }
        let nameHits = terms.isEmpty ? "0" : terms.map { _ in "(instr(search_name, ?) > 0)" }.joined(separator: " + ")

        func fetch(_ db: Database, extra: String?, extraArguments: [(any DatabaseValueConvertible)?], limit: Int?) throws -> [SearchResult] {
            let conditions = [everywhere.sql].compactMap { $0 } + [extra].compactMap { $0 } + filters
            let sql = """
                SELECT path, duration, mode, title, has_lyrics, \(nameHits) AS name_hits
                FROM file
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY file.id
                """ + (limit.map { " LIMIT \($0)" } ?? "")
            // Bound in the order the placeholders appear: the selected columns first.
            let values = terms.map { $0 as (any DatabaseValueConvertible)? } + everywhere.arguments + extraArguments + filterArguments
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values.map { $0?.databaseValue ?? .null })).map { row in
                let path: Data = row["path"]
                return SearchResult(path: FilePath(bytes: path), durationSeconds: row["duration"], mode: row["mode"],
                                    title: row["title"], hasLyrics: row["has_lyrics"], wordsInName: row["name_hits"])
            }
        }
        return try read { db in
            guard let nameSQL = inName.sql else { return try fetch(db, extra: nil, extraArguments: [], limit: query.limit) }
            let named = try fetch(db, extra: nameSQL, extraArguments: inName.arguments, limit: query.limit)
            let room = query.limit.map { $0 - named.count }
            guard room.map({ $0 > 0 }) ?? true else { return named }
            return named + (try fetch(db, extra: "NOT (\(nameSQL))", extraArguments: inName.arguments, limit: room))
        }
    }

    /// The condition that files have every word (in `column` of the indexes, or anywhere), and its
    /// arguments; nil with no words. Each index is asked once, for all its words together: it
    /// intersects them itself.
    private static func wordConditions(_ terms: [String], column: String?) -> (sql: String?, arguments: [(any DatabaseValueConvertible)?]) {
        var parts: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        let scope = column.map { "\($0) : " } ?? ""
        let long = terms.filter { $0.count >= shortestIndexedWord }
        if !long.isEmpty {
            parts.append("file.id IN (SELECT rowid FROM search WHERE search MATCH ?)")
            arguments.append(long.map { scope + "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND "))
        }
        // One letter: any pair it starts (or a word of it alone); two: that pair.
        let short = terms.filter { $0.count < shortestIndexedWord }.map { String($0.filter(SearchText.isLetterOrDigit)) }.filter { !$0.isEmpty }
        if !short.isEmpty {
            parts.append("file.id IN (SELECT rowid FROM pairs WHERE pairs MATCH ?)")
            arguments.append(short.map { scope + "\"" + $0 + "\"" + ($0.count == 1 ? " *" : "") }.joined(separator: " AND "))
        }
        return (parts.isEmpty ? nil : "(" + parts.joined(separator: " AND ") + ")", arguments)
    }
}
