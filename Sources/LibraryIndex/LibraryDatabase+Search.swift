import Files
import Foundation
import GRDB
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
    /// many match (ordering 20,000 matches by path took longer than finding them). Each group asks
    /// one full-text question: the files with every word in their names are among those with every
    /// word anywhere, and once they are all known (fewer than the limit) the others are the rest
    /// by row number (asking the names' index again cost a 60 ms search 6–15 ms).
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

        /// The files that meet `words` (and the filters), by row number, with their row numbers.
        func fetch(
            _ db: Database, words: (sql: String?, arguments: [(any DatabaseValueConvertible)?]), excluding excluded: [Int64],
            limit: Int?
        ) throws -> [(id: Int64, result: SearchResult)] {
            let exclusion = excluded.isEmpty ? nil : "file.id NOT IN (" + excluded.map { _ in "?" }.joined(separator: ", ") + ")"
            let conditions = [words.sql, exclusion].compactMap { $0 } + filters
            let sql = """
                SELECT file.id, path, duration, mode, title, artist, album, genre, has_lyrics, \(nameHits) AS name_hits
                FROM file
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY file.id
                """ + (limit.map { " LIMIT \($0)" } ?? "")
            // Bound in the order the placeholders appear: the selected columns first.
            let values =
                terms.map { $0 as (any DatabaseValueConvertible)? } + words.arguments + excluded.map { $0 as (any DatabaseValueConvertible)? }
                + filterArguments
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values.map { $0?.databaseValue ?? .null })).map { row in
                let path: Data = row["path"]
                return (
                    row["id"],
                    SearchResult(
                        path: FilePath(bytes: path), durationSeconds: row["duration"], mode: row["mode"],
                        title: row["title"], artist: row["artist"], album: row["album"], genre: row["genre"], hasLyrics: row["has_lyrics"],
                        wordsInName: row["name_hits"])
                )
            }
        }
        return try read { db in
            guard let nameSQL = inName.sql, let everywhereSQL = everywhere.sql else {
                return try fetch(db, words: everywhere, excluding: [], limit: query.limit).map(\.result)
            }
            let named = try fetch(db, words: inName, excluding: [], limit: query.limit)
            let room = query.limit.map { $0 - named.count }
            guard room.map({ $0 > 0 }) ?? true else { return named.map(\.result) }
            // Every file with the words in its name is in `named` (there was room for more), and
            // is left out of the rest by its row number: up to a limit SQLite takes in one
            // statement, and by asking the names' index again beyond it.
            let others =
                if named.count <= Self.longestExclusionList {
                    try fetch(db, words: everywhere, excluding: named.map(\.id), limit: room)
                } else {
                    try fetch(db, words: (everywhereSQL + " AND NOT " + nameSQL, everywhere.arguments + inName.arguments), excluding: [], limit: room)
                }
            return (named + others).map(\.result)
        }
    }

    /// The most files the second group leaves out by row number (SQLite binds 32,766 values at most).
    static let longestExclusionList = 2_000

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
