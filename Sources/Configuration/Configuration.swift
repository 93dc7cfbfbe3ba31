import SystemPackage
import TOMLKit

/// Everything the configuration file can set, one property per table of the file
/// (or per top-level key that belongs to no table), so that a later one is one more
/// property and one more line in `init(parsing:path:)`.
public struct Configuration: Sendable, Equatable {
    /// The top-level keys and the `[reverb]` and `[chorus]` tables.
    public var render: RenderSettings
    /// The `[audio]` table.
    public var audio: AudioSettings
    /// The `library` key: the folder the browser starts in and `smfplay import`
    /// copies into, as written (absolute, or starting with `~`); `nil` for the
    /// default. `libraryRoot(in:)` gives the folder itself.
    public var library: String?
    /// The `text_encoding` key: how MIDI files' texts (titles, lyrics) are read, "utf-8",
    /// "shift-jis" or "cp1252"; `nil` for "auto" (decided for each file from all its text).
    public var textEncoding: String?
    /// The file these settings came from; `nil` when no file was read and every
    /// setting is its default.
    public var path: FilePath?

    public init(
        render: RenderSettings = RenderSettings(), audio: AudioSettings = AudioSettings(), library: String? = nil,
        textEncoding: String? = nil, path: FilePath? = nil
    ) {
        self.render = render
        self.audio = audio
        self.library = library
        self.textEncoding = textEncoding
        self.path = path
    }

    /// The values `text_encoding` takes.
    public static let textEncodings = ["auto", "utf-8", "shift-jis", "cp1252"]

    /// Reads a configuration file's text. `path` names the file in error messages
    /// and is the folder relative SoundFont paths start from.
    ///
    /// Every problem in the file is found; the one thrown is the first in the file,
    /// which is the one a person fixing it from the top expects.
    public init(parsing text: String, path: FilePath) throws(ConfigurationError) {
        let (reader, root) = try Self.document(parsing: text, path: path)
        let render = RenderSettings(reading: root)
        let audio = AudioSettings(reading: root.table("audio"))
        let library = Self.library(reading: root)
        let textEncoding = SongKeys.textEncoding(in: root) ?? nil
        if let problem = reader.firstProblem() { throw problem }
        self.init(render: render, audio: audio, library: library, textEncoding: textEncoding, path: path)
    }

    /// A TOML file's text parsed, and the reader of its top level; a syntax error thrown with its
    /// line and column. The configuration file and folders' `.smfplay.toml` files are read so.
    static func document(parsing text: String, path: FilePath) throws(ConfigurationError) -> (DocumentReader, TableReader) {
        try checkForNUL(in: text, path: path)
        let keyLines = TOMLKeyLines(scanning: text)
        func syntaxError(line: Int, column: Int, _ message: String) -> ConfigurationError {
            let key = keyLines.key(onLine: line).map { "key '\(KeyPath.display($0))': " } ?? ""
            return .syntax(path: path, line: line, column: column, message: key + message)
        }
        if let aborting = keyLines.abortingError { throw syntaxError(line: aborting.line, column: aborting.column, aborting.message) }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw syntaxError(line: error.source.begin.line, column: error.source.begin.column, error.description)
        } catch {
            throw .syntax(path: path, line: 1, column: 1, message: "\(error)")
        }
        let reader = DocumentReader(path: path, keyLines: keyLines)
        return (reader, TableReader(document: reader, key: [], table: table))
    }

    /// TOMLKit hands the text to toml++ as a C string, which would end it at a NUL
    /// without a word; TOML forbids the character, so it is refused here instead.
    private static func checkForNUL(in text: String, path: FilePath) throws(ConfigurationError) {
        guard text.utf8.contains(0) else { return }
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            if scalar == "\0" { break }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        throw .syntax(path: path, line: line, column: column, message: "a NUL character is not allowed in a TOML file")
    }
}
