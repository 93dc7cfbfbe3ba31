import Foundation
import GRDB
import SMF
import SystemPackage

/// The text encoding of the index. Titles, copyrights and words are kept as read, so a file is
/// read again when they were read in another encoding than the one asked for now (each file's row
/// says which; see ``IndexedFile/textEncoding``). The encoding of the last full update is kept
/// for the whole index: files read in passing (those the browser shows, those `play` plays) are
/// read in it, so that the index stays in one encoding until the next update changes it.
extension LibraryDatabase {
    static let textEncodingSetting = "text_encoding"

    func setTextEncoding(_ encoding: TextDecoding.Encoding?) throws(LibraryIndexError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)",
                arguments: [Self.textEncodingSetting, TextDecoding.Encoding.name(of: encoding)])
        }
    }
}

extension LibraryIndexReading {
    /// The encoding of the last full update; nil for each file's own (auto), as every index had
    /// before the encoding could be chosen.
    public func textEncoding() throws(LibraryIndexError) -> TextDecoding.Encoding? {
        let name = try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [LibraryDatabase.textEncodingSetting])
        }
        return name.flatMap(TextDecoding.Encoding.init(rawValue:))
    }

    /// Whether an update in `encoding` would read files under `folder` again for it: the index is
    /// in another encoding, or some file's texts were read in one (an update stopped half-way, a
    /// file read in passing). Through the index on the rows' encodings, at once however many files
    /// there are.
    public func needsReadingAgain(under folder: FilePath, textEncoding encoding: TextDecoding.Encoding?) throws(LibraryIndexError) -> Bool {
        guard try textEncoding() == encoding else { return true }
        let others = ([nil] + TextDecoding.Encoding.allCases).filter { $0 != encoding }.map(TextDecoding.Encoding.name(of:))
        let range = PathRange(folder: folder)
        return try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM file WHERE text_encoding IN (\(others.map { _ in "?" }.joined(separator: ", "))) AND path >= ? AND path < ?)
                    """, arguments: StatementArguments(others.map { $0 as any DatabaseValueConvertible } + [range.lower, range.upper])) ?? false
        }
    }
}

extension TextDecoding.Encoding {
    /// What `--text-encoding`, the configuration and the index call `encoding`: its raw value, or
    /// `auto` for nil (each file's own).
    public static func name(of encoding: TextDecoding.Encoding?) -> String {
        encoding?.rawValue ?? "auto"
    }
}
