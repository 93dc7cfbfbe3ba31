#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden temporary file an output is written to before it is renamed into place.
///
/// It sits in the same folder as the output, so the rename stays on one file system and is atomic,
/// and its name starts with a dot, so a batch renderer scanning the folder skips it:
/// `.<name>.part-<pid>-<n>`.
enum TemporarySibling {
    /// Creates the temporary file for `path` and returns its descriptor (read and write: libsndfile
    /// reads back what it wrote when it finishes some formats) and its path.
    static func create(for path: String) throws(AudioFileError) -> (fd: Int32, path: String) {
        let (folder, name) = split(path)
        var existing = stat()
        if stat(path, &existing) == 0 {
            switch existing.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw .cannotCreate(path: path, cause: .system(errno: EISDIR))
            default: throw .cannotCreate(path: path, cause: .notARegularFile)
            }
        }
        guard !name.isEmpty else { throw .cannotCreate(path: path, cause: .system(errno: EISDIR)) }
        // O_EXCL makes every writer's name its own, even for two writers of one output in one process.
        for attempt in 0..<1000 {
            let suffix = ".part-\(getpid())-\(attempt)"
            let temporary = join(folder, "." + truncated(name, toBytes: 255 - 1 - suffix.utf8.count) + suffix)
            let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { throw .cannotCreate(path: path, cause: cause(of: errno, creatingIn: folder)) }
        }
        throw .cannotCreate(path: path, cause: .system(errno: EEXIST))
    }

    /// Makes a rename in `folder` last: the folder's entry is on disk only once the folder is flushed.
    static func syncFolder(of path: String) {
        let folder = open(split(path).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        // Best effort: the file is already in place, and a failure here would only make the caller
        // report an error about a file that exists.
        _ = fsync(folder)
        close(folder)
    }

    /// The folder and the name of a path; the folder of a bare name is ".".
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = path[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    /// A name cut at a character boundary to fit `limit` UTF-8 bytes, so that a long output name
    /// still leaves room for the temporary suffix within NAME_MAX.
    private static func truncated(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        var result = ""
        for character in name {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }

    /// Says which folder is the trouble when creating a file failed.
    private static func cause(of code: Int32, creatingIn folder: String) -> AudioFileError.Cause {
        switch code {
        case ENOENT:
            return .folderMissing(folder)
        case ENOTDIR:
            // Some part of the folder's path is a file: the deepest part that exists.
            var candidate = folder
            var status = stat()
            while true {
                if stat(candidate, &status) == 0 {
                    return (status.st_mode & S_IFMT) == S_IFDIR ? .system(errno: code) : .notAFolder(candidate)
                }
                if candidate == "/" || candidate == "." { return .system(errno: code) }
                candidate = split(candidate).folder
            }
        default:
            return .system(errno: code)
        }
    }
}
