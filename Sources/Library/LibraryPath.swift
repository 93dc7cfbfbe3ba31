#if canImport(Glibc)
import Glibc
#endif

/// Where a file is, stored so that it survives moving the library: a path relative
/// to the library folder for a file inside it, an absolute path for one outside.
///
/// Names compare as Swift strings do, under Unicode canonical equivalence, so that a
/// name typed on macOS (NFD) and the same name from Linux (NFC) are one path.
/// Encoded as one string: `"Chopin/Ballade No.1.mid"` or `"/tmp/song.mid"`.
public enum LibraryPath: Hashable, Sendable, CustomStringConvertible {
    /// Inside the library: `/`-separated names, none of them empty, `.` or `..`.
    case inLibrary(String)
    /// Outside it: absolute.
    case outside(String)

    /// `path` as stored for a library at `libraryRoot` (both absolute, or relative
    /// to `workingDirectory`). A path that goes through `..` is kept absolute,
    /// since through a symbolic link `..` need not lead back into the library.
    public init(_ path: String, libraryRoot: String, workingDirectory: String = LibraryPath.currentDirectory()) {
        let parts = Self.parts(of: path, workingDirectory: workingDirectory)
        let rootParts = Self.parts(of: libraryRoot, workingDirectory: workingDirectory)
        let inside = parts.dropFirst(rootParts.count)
        if parts.starts(with: rootParts), !inside.isEmpty, !inside.contains("..") {
            self = .inLibrary(inside.joined(separator: "/"))
        } else {
            self = .outside("/" + parts.joined(separator: "/"))
        }
    }

    /// The path under a library at `libraryRoot`, which may have moved since.
    public func path(in libraryRoot: String) -> String {
        switch self {
        case .inLibrary(let relative): libraryRoot.hasSuffix("/") ? libraryRoot + relative : libraryRoot + "/" + relative
        case .outside(let absolute): absolute
        }
    }

    /// The file this path names under `libraryRoot`: `path(in:)` when something is
    /// there; otherwise, when each name matches one on disk that differs only in
    /// Unicode normalization (a library copied between macOS and Linux), that
    /// file's path; otherwise `path(in:)`, so that the caller reports it missing.
    public func located(in libraryRoot: String) -> String {
        let expected = path(in: libraryRoot)
        if Self.exists(expected) { return expected }
        let (start, names): (String, [Substring]) = switch self {
        case .inLibrary(let relative): (libraryRoot, relative.split(separator: "/"))
        case .outside(let absolute): ("/", absolute.split(separator: "/"))
        }
        var folder = start
        for name in names {
            let joined = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            if Self.exists(joined) {
                folder = joined
            } else if let match = FolderListing.names(in: folder)?.names.first(where: { $0 == name }) {
                folder = folder.hasSuffix("/") ? folder + match : folder + "/" + match
            } else {
                return expected
            }
        }
        return folder
    }

    public var description: String {
        switch self {
        case .inLibrary(let relative): relative
        case .outside(let absolute): absolute
        }
    }

    /// The names along a path made absolute, without empty and `.` parts.
    static func parts(of path: String, workingDirectory: String) -> [Substring] {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        return absolute.split(separator: "/").filter { $0 != "." }
    }

    @usableFromInline
    static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

extension LibraryPath: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if text.hasPrefix("/") {
            self = .outside(text)
            return
        }
        let names = text.split(separator: "/", omittingEmptySubsequences: false)
        guard !text.isEmpty, !names.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a path inside the library"))
        }
        self = .inLibrary(text)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
