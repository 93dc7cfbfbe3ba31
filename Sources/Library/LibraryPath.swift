import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Where a file is, stored so that it survives moving the library: a path relative to the library
/// folder for a file inside it, an absolute path for one outside. Names are bytes, whatever their
/// encoding.
///
/// A name that is UTF-8 also matches its twin in another Unicode normalization on disk (see
/// ``located(in:)``), so that a library copied between macOS (NFD) and Linux (NFC) still resumes.
public enum LibraryPath: Hashable, Sendable, CustomStringConvertible {
    /// Inside the library: relative, none of its names `.` or `..`.
    case inLibrary(FilePath)
    /// Outside it: absolute.
    case outside(FilePath)

    /// `path` as stored for a library at `libraryRoot` (both absolute, or relative to
    /// `workingDirectory`). A path that goes through `..` is kept absolute, since through a
    /// symbolic link `..` need not lead back into the library.
    public init(_ path: FilePath, libraryRoot: FilePath, workingDirectory: @autoclosure () -> FilePath = .currentDirectory) {
        // The common case on bytes alone (a queue of 100,000 files is stored at once): an absolute
        // path under an absolute root, with no `.` or `..` in the rest.
        if let relative = path.relativeBytes(under: libraryRoot) {
            self = .inLibrary(FilePath(bytes: relative))
            return
        }
        let absolute = path.absolute(in: workingDirectory())
        let root = libraryRoot.absolute(in: workingDirectory())
        var inside = absolute
        if inside.removePrefix(root), !inside.isEmpty, !inside.components.contains(where: { $0.kind == .parentDirectory }) {
            self = .inLibrary(inside)
        } else {
            self = .outside(absolute)
        }
    }

    /// The stored form read back: an absolute path is outside the library, a relative one inside
    /// it; nil for a relative path that climbs out with `..`, or an empty one.
    public init?(stored path: FilePath) {
        if path.isAbsolute {
            self = .outside(path)
        } else if !path.isEmpty, !path.components.contains(where: { $0.kind != .regular }) {
            self = .inLibrary(path)
        } else {
            return nil
        }
    }

    /// The stored form: relative inside the library, absolute outside it.
    public var stored: FilePath {
        switch self {
        case .inLibrary(let relative): relative
        case .outside(let absolute): absolute
        }
    }

    /// The path under a library at `libraryRoot`, which may have moved since.
    public func path(in libraryRoot: FilePath) -> FilePath {
        switch self {
        case .inLibrary(let relative): libraryRoot.pushing(relative)
        case .outside(let absolute): absolute
        }
    }

    /// The file this path names under `libraryRoot`: `path(in:)` when something is there;
    /// otherwise, when each name matches one on disk that differs only in Unicode normalization
    /// (a library copied between macOS and Linux), that file's path; otherwise `path(in:)`, so
    /// that the caller reports it missing.
    public func located(in libraryRoot: FilePath) -> FilePath {
        let expected = path(in: libraryRoot)
        if Self.exists(expected) { return expected }
        var folder: FilePath =
            switch self {
            case .inLibrary: libraryRoot
            case .outside: "/"
            }
        for name in stored.components {
            let joined = folder.appending(name)
            if Self.exists(joined) {
                folder = joined
            } else if let text = String(validating: name),
                let match = folder.entryNames()?.first(where: { String(validating: $0) == text })
            {
                folder.append(match)
            } else {
                return expected
            }
        }
        return folder
    }

    public var description: String { stored.text }

    private static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { lstat($0, &info) } == 0
    }
}
