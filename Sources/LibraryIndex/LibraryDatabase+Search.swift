import Files
import Foundation
import GRDB
import SystemPackage

extension LibraryDatabase {
    /// The full-text indexes compare three letters at a time (SQLite's trigram tokenizer, which
    /// finds any part of a word in any script): `search` of everything searched, `names` of the
    /// names alone; a word of one or two letters is looked up among the letter pairs of names,
    /// folders and titles (`pairs`, see ``SearchText/letterPairs(of:)``).
    static let shortestIndexedWord = 3

    /// The most files the second group leaves out by row number (SQLite binds 32,766 values at most).
    static let longestExclusionList = 2_000

    /// A question to one full-text index: the files that have all of some words.
    fileprivate struct WordMatch {
        /// `search` (three letters at a time) or `pairs` (letter pairs).
        var table: String
        var pattern: String

        /// The condition that a file is among the matches.
        var membership: String { "file.id IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)" }
    }

    /// The questions for files with every word (in their names, or anywhere); none with no
    /// words. Each index is asked once, for all its words together: it intersects them itself.
    fileprivate static func wordMatches(_ terms: [String], inNames: Bool) -> [WordMatch] {
        var matches: [WordMatch] = []
        let long = terms.filter { $0.count >= shortestIndexedWord }
        if !long.isEmpty {
            let pattern = long.map(quoted).joined(separator: " AND ")
            matches.append(WordMatch(table: inNames ? "names" : "search", pattern: pattern))
        }
        let scope = inNames ? "name : " : ""
        // One letter: any pair it starts (or a word of it alone); two: that pair.
        let short = terms.filter { $0.count < shortestIndexedWord }.map { String($0.filter(SearchText.isLetterOrDigit)) }.filter { !$0.isEmpty }
        if !short.isEmpty {
            let pattern = short.map { scope + "\"" + $0 + "\"" + ($0.count == 1 ? " *" : "") }.joined(separator: " AND ")
            matches.append(WordMatch(table: "pairs", pattern: pattern))
        }
        return matches
    }

    /// `term` as an FTS5 string, its quotes doubled.
    private static func quoted(_ term: String) -> String {
        var quoted = "\""
        for character in term {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}

extension SearchQuery {
    /// Whether `words` leave anything to look for: a word needs three characters, or a letter or
    /// a digit. Without, a search would list every file (`search ""`, `search -`).
    public static func hasWordsToLookFor(_ words: [String]) -> Bool {
        !LibraryDatabase.wordMatches(SearchText.terms(of: words), inNames: false).isEmpty
    }
}

extension LibraryIndexReading {
    /// The files that have every word of `query`: first those with every word in their own names,
    /// then the others, each in the order the library was indexed in (its folders' natural order,
    /// files added later after them).
    ///
    /// Each group is read from a full-text index, which returns its files in the order of their
    /// row numbers: with a limit, SQLite stops after that many files however many match (asking
    /// for the matches as a set first, then walking the files in order, took 10-15 ms for a word
    /// in 10,000 files; reading the index in order takes under 1 ms). Each group asks one
    /// full-text question: the files with every word in their names are among those with every
    /// word anywhere, and once they are all known (fewer than the limit) the others are the rest
    /// by row number (asking the names' index again cost a 60 ms search 6–15 ms).
    public func search(_ query: SearchQuery) throws(LibraryIndexError) -> [SearchResult] {
        var terms: [String] = []
        for term in SearchText.terms(of: query.words) where !terms.contains(term) { terms.append(term) }
        let everywhere = LibraryDatabase.wordMatches(terms, inNames: false)
        let inName = LibraryDatabase.wordMatches(terms, inNames: true)
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
        let nameHits = terms.isEmpty ? "0" : terms.map { _ in "(instr(file.search_name, ?) > 0)" }.joined(separator: " + ")

        /// The files that meet `words`, not `unwanted` and the filters, by row number, with their
        /// row numbers. The first of `words` is the table read; the others are checked as sets.
        func fetch(
            _ db: Database, words: [LibraryDatabase.WordMatch], unwanted: [LibraryDatabase.WordMatch] = [], excluding excluded: [Int64] = [],
            limit: Int?
        ) throws -> [(id: Int64, result: SearchResult)] {
            var conditions: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = terms.map { $0 }
            let source: String
            if let reader = words.first {
                // CROSS JOIN keeps the full-text table first: read in its order, it needs no sorting.
                source = "\(reader.table) CROSS JOIN file ON file.id = \(reader.table).rowid"
                conditions.append("\(reader.table) MATCH ?")
                arguments.append(reader.pattern)
            } else {
                source = "file"
            }
            for match in words.dropFirst() {
                conditions.append(match.membership)
                arguments.append(match.pattern)
            }
            if !unwanted.isEmpty {
                conditions.append("NOT (" + unwanted.map(\.membership).joined(separator: " AND ") + ")")
                arguments += unwanted.map(\.pattern)
            }
            if !excluded.isEmpty {
                conditions.append("file.id NOT IN (" + excluded.map { _ in "?" }.joined(separator: ", ") + ")")
                arguments += excluded.map { $0 }
            }
            conditions += filters
            arguments += filterArguments
            let sql = """
                SELECT file.id AS id, file.path AS path, file.duration AS duration, file.mode AS mode, file.title AS title,
                    file.artist AS artist, file.album AS album, file.genre AS genre, file.has_lyrics AS has_lyrics,
                    \(nameHits) AS name_hits
                FROM \(source)
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(words.first?.table ?? "file").rowid
                """ + (limit.map { " LIMIT \($0)" } ?? "")
            // Bound in the order the placeholders appear: the selected columns first. Each row read
            // as it comes, by column position (by name, a search's 200 rows took longer than its
            // query).
            let statement = try db.makeStatement(sql: sql)
            statement.arguments = StatementArguments(arguments.map { $0?.databaseValue ?? .null })
            let rows = try Row.fetchCursor(statement)
            var found: [(id: Int64, result: SearchResult)] = []
            while let row = try rows.next() {
                let path: Data = row[1]
                found.append(
                    (
                        row[0],
                        SearchResult(
                            path: FilePath(bytes: path), durationSeconds: row[2], mode: row[3], title: row[4], artist: row[5], album: row[6],
                            genre: row[7],
                            hasLyrics: row[8], wordsInName: row[9])
                    ))
            }
            return found
        }
        return try read { db in
            guard !inName.isEmpty else { return try fetch(db, words: everywhere, limit: query.limit).map(\.result) }
            let named = try fetch(db, words: inName, limit: query.limit)
            let room = query.limit.map { $0 - named.count }
            guard room.map({ $0 > 0 }) ?? true else { return named.map(\.result) }
            // Every file with the words in its name is in `named` (there was room for more), and
            // is left out of the rest by its row number: up to a limit SQLite takes in one
            // statement, and by asking the names' index again beyond it.
            let others =
                if named.count <= LibraryDatabase.longestExclusionList {
                    try fetch(db, words: everywhere, excluding: named.map(\.id), limit: room)
                } else {
                    try fetch(db, words: everywhere, unwanted: inName, limit: room)
                }
            return (named + others).map(\.result)
        }
    }
}
