import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A list of MIDI files to render, one path per line: what `smfplay render --manifest` reads and
/// `--write-manifest` writes, so that the tasks of a cluster job read one file instead of each
/// walking the shared file system.
///
/// A line is a path's bytes as they are (UTF-8 or not; only a line break ends it, so a name with
/// one cannot be listed). A relative path is relative to the manifest's folder, which is also the
/// root the outputs mirror: `a/song.mid` in `/data/list.txt` renders to `OUT/a/song.wav`, as
/// `render /data -o OUT` would. Empty lines are left out, and a carriage return at a line's end (a
/// list saved on Windows: no file name ends in one in practice).
public struct InputManifest: Sendable {
    /// One line: a file, and where its output goes under the output folder.
    public struct Entry: Hashable, Sendable {
        public let file: FilePath
        /// The line when it is relative without `..` (the tree the outputs mirror); nil for an
        /// absolute path or one that leaves the folder, rendered by its name alone.
        public let relativePath: FilePath?
    }

    /// The folder relative paths start from: the manifest's, or the current one for standard input.
    public let folder: FilePath
    public let entries: [Entry]

    /// The largest manifest read: about 20 million paths.
    static let sizeLimit = 1 << 30

    /// Reads the manifest at `path`.
    public init(contentsOf path: FilePath) throws(InputManifestError) {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: Self.sizeLimit)
        } catch {
            throw .unreadable(path, error.description)
        }
        self.init(bytes: bytes, folder: path.containingFolder)
    }

    public init(bytes: [UInt8], folder: FilePath) {
        self.folder = folder
        entries = bytes.split(separator: UInt8(ascii: "\n")).compactMap { whole in
            let line = whole.last == UInt8(ascii: "\r") ? whole.dropLast() : whole
            guard !line.isEmpty else { return nil }
            let path = FilePath(bytes: line)
            if path.isAbsolute { return Entry(file: path, relativePath: nil) }
            let file = folder == "." ? path : folder.pushing(path)
            let dotDot = line.split(separator: UInt8(ascii: "/")).contains { $0.elementsEqual("..".utf8) }
            return Entry(file: file, relativePath: dotDot ? nil : path.lexicallyNormalized())
        }
    }

    /// Writes `files` as a manifest at `path`, whole or not at all, each relative to the
    /// manifest's folder when it is under it (so that the list can move with the collection) and
    /// absolute otherwise. Returns the files left out: those whose name has a line break, or ends
    /// in a carriage return (which reading takes off).
    public static func write(_ files: [FilePath], to path: FilePath) throws(FileWriteError) -> [FilePath] {
        let folder = absolute(path.containingFolder)
        var bytes: [UInt8] = []
        var left: [FilePath] = []
        let lineBreak = UInt8(ascii: "\n")
        for file in files {
            let full = absolute(file)
            let line = full.relativeBytes(under: folder).map(Array.init) ?? full.bytes
            guard !line.contains(lineBreak), line.last != UInt8(ascii: "\r") else {
                left.append(file)
                continue
            }
            bytes += line
            bytes.append(lineBreak)
        }
        try AtomicWrite.write(bytes, to: path)
        return left
    }

    /// `path` from `/`, `.` and `..` resolved by the file system where the path exists (so that a
    /// folder given as `.` or `../x` compares with the files under it).
    private static func absolute(_ path: FilePath) -> FilePath {
        if let resolved = path.withPlatformString({ realpath($0, nil) }) {
            defer { free(resolved) }
            return FilePath(platformString: resolved)
        }
        return path.absolute()
    }

    /// Reads a manifest piped in (`--manifest -`), its relative paths from the current folder.
    public static func fromStandardInput() throws(InputManifestError) -> InputManifest {
        do {
            return InputManifest(bytes: try SmallFile.readToEnd(STDIN_FILENO, limit: sizeLimit), folder: ".")
        } catch {
            switch error {
            case .unreadable(let reason): throw .unreadableStandardInput(reason)
            case .tooLarge(let limit): throw .unreadableStandardInput("more than \(limit) bytes")
            }
        }
    }
}
