import Files
import SystemPackage

/// Where the configuration comes from: the user's file in the XDG place, or a file
/// named on the command line.
///
/// ```swift
/// let file = options.config.map(ConfigurationFile.init(path:)) ?? .standard(in: .current())
/// var configuration = try file.load()
/// ```
public struct ConfigurationFile: Sendable, Equatable {
    /// The file's path, as it appears in messages.
    public var path: FilePath
    /// Whether a missing file is an error. A file the user named must exist; the
    /// standard one need not, since most people never write one.
    public var isRequired: Bool

    /// Anything larger is not a configuration file written by hand.
    public static let sizeLimit = 1 << 20

    /// A file named by the user, which must exist; or one that may be missing.
    public init(path: FilePath, isRequired: Bool = true) {
        self.path = path
        self.isRequired = isRequired
    }

    /// `$XDG_CONFIG_HOME/smfplay/config.toml`, which may be missing.
    public static func standard(in directories: XDGDirectories) -> ConfigurationFile {
        ConfigurationFile(path: standardPath(in: directories), isRequired: false)
    }

    public static func standardPath(in directories: XDGDirectories) -> FilePath {
        directories.configHome.appending(XDGDirectories.applicationName).appending("config.toml")
    }

    /// Reads and checks the file. A missing file that is not required gives the
    /// defaults, with `path` nil.
    public func load() throws(ConfigurationError) -> Configuration {
        guard let text = try text() else { return Configuration() }
        return try Configuration(parsing: text, path: path)
    }

    /// The file's text; nil when it is missing and need not be there (a missing file that is
    /// required is an error). Folders' `.smfplay.toml` files are read so too.
    public func text() throws(ConfigurationError) -> String? {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: Self.sizeLimit)
        } catch {
            switch error {
            case .missing, .system(.notDirectory):
                if isRequired { throw .missingFile(path: path) }
                return nil
            case .folder:
                throw .unreadable(path: path, reason: "is a folder, not a configuration file")
            case .tooLarge(let size, let limit):
                throw .unreadable(path: path, reason: "is \(size) bytes, too large for a configuration file (at most \(limit))")
            case .notARegularFile:
                throw .unreadable(path: path, reason: "is not a regular file")
            case .system(let code):
                throw .unreadable(path: path, reason: "cannot read: " + SystemError.text(code.rawValue))
            }
        }
        return try Self.text(of: bytes, path: path)
    }

    /// TOML is UTF-8 by definition; a file saved in Latin-1 or UTF-16 is named with the
    /// place of its first bad byte rather than misread.
    static func text(of bytes: [UInt8], path: FilePath) throws(ConfigurationError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .error:
                throw .syntax(path: path, line: line, column: column, message: "not UTF-8 text; save the file as UTF-8")
            case .emptyInput:
                // Not reached: the bytes did not validate, so the parser meets an error.
                throw .syntax(path: path, line: line, column: column, message: "not UTF-8 text; save the file as UTF-8")
            }
        }
    }
}
