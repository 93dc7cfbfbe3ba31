import Files
import Foundation
import GRDB
import SystemPackage

/// One MIDI file of the library as the index knows it: where it is, how it was when read, and
/// what was read from it.
public struct IndexedFile: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "file"

    public var id: Int64?
    /// The path's bytes, as the file system has them (a name need not be UTF-8).
    public var path: Data
    public var size: Int64
    /// The modification time in nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    public var inode: Int64
    /// Why the file could not be read as MIDI; nil when it was.
    public var problem: String?
    public var duration: Double?
    public var format: Int?
    public var trackCount: Int?
    /// Channels (1–16) with notes, comma-separated.
    public var channels: String?
    public var noteCount: Int?
    /// The programs chosen (1–128), comma-separated.
    public var programs: String?
    /// gm, gs, xg or gm2.
    public var mode: String?
    public var title: String?
    /// An RMID file's INFO artist, album and genre.
    public var artist: String?
    public var album: String?
    public var genre: String?
    public var copyright: String?
    public var hasLyrics: Bool
    /// The lyrics and text, as one text.
    public var words: String?
    /// The file's name as searches compare it (see ``SearchText``), to put files with the words in
    /// their names first.
    public var searchName = ""
    /// False for a file known only from the browser's old cache (its length and tracks), or not
    /// read at all (no permission, an I/O error): the next update reads it again, whole.
    public var isComplete = true
    /// True for a file indexed before RMID files' artists, albums and genres were: the next update
    /// reads it again if it is an RMID file, and clears this for the rest (see
    /// ``LibraryDatabase/hasFilesIndexedBeforeRMIDInfo(under:)``).
    public var isIndexedBeforeRMIDInfo = false
    /// The text encoding its title, artist, album, genre, copyright and words were read in (`auto`, `utf-8`, `shift-jis`,
    /// `cp1252`; see ``TextDecoding/Encoding/name(of:)``); nil when they read the same in any (all
    /// ASCII, or none). An update in another encoding reads the file again.
    public var textEncoding: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, path, size, inode, problem, duration, format, channels, programs, mode, title, artist, album, genre, copyright, words
        case modifiedNanoseconds = "modified_ns"
        case trackCount = "track_count"
        case noteCount = "note_count"
        case hasLyrics = "has_lyrics"
        case searchName = "search_name"
        case isComplete = "complete"
        case textEncoding = "text_encoding"
        case isIndexedBeforeRMIDInfo = "before_rmid_info"
    }

    /// The row's columns, written directly rather than through `Encodable` (the encoder took a
    /// quarter of the index's writing time).
    public func encode(to container: inout PersistenceContainer) {
        for (key, value) in zip(CodingKeys.allCases, columnValues) { container[key.rawValue] = value }
    }

    /// The value of each column, in the order of `CodingKeys.allCases`.
    var columnValues: [(any DatabaseValueConvertible)?] {
        [
            id, path, size, inode, problem, duration, format, channels, programs, mode, title, artist, album, genre, copyright, words,
            modifiedNanoseconds, trackCount, noteCount, hasLyrics, searchName, isComplete, textEncoding, isIndexedBeforeRMIDInfo,
        ]
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The path as a file system path.
    public var filePath: FilePath { FilePath(bytes: path) }
    /// The path as a person reads it (see `FilePath.text`).
    public var pathText: String { filePath.text }
}
