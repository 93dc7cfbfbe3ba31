import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The name and creation of the hidden temporary file a ``StagedFile`` is written to before it is
/// renamed into place.
///
/// It sits in the same folder as the output, so the rename stays on one file system and is atomic,
/// and its name starts with a dot, so a batch renderer or an indexer scanning the folder skips it:
/// `.<name>.part-<pid>-<n>`. The output's name is kept as bytes, whatever its encoding.
public enum TemporarySibling {
    /// Why the temporary file could not be created.
    public enum Failure: Error, Hashable, Sendable {
        /// A system call failed with this `errno`.
        case system(errno: Int32)
        /// The folder that should hold the file does not exist.
        case folderMissing(FilePath)
        /// A path that should be a folder is a file.
        case notAFolder(FilePath)
        /// The output's path names a device, a pipe or a socket, which the rename of a finished
        /// file would replace (`/dev/null` turned into a file).
        case notARegularFile
    }

    /// Creates the temporary file for `path` with `permissions` (before the umask) and returns its
    /// descriptor (read and write: libsndfile reads back what it wrote when it finishes some
    /// formats) and its path.
    static func create(for path: FilePath, permissions: FilePermissions) throws(Failure) -> (descriptor: FileDescriptor, path: FilePath) {
        var existing = stat()
        if path.withPlatformString({ stat($0, &existing) }) == 0 {
            switch existing.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw .system(errno: EISDIR)
            default: throw .notARegularFile
            }
        }
        guard let name = path.lastComponent, name.kind == .regular else { throw .system(errno: EISDIR) }
        let folder = path.containingFolder
        let nameBytes = name.bytes.map { CChar(bitPattern: $0) }
        // O_EXCL makes every writer's name its own, even for two writers of one output in one process.
        for attempt in 0..<1000 {
            let suffix = Array(".part-\(getpid())-\(attempt)".utf8CString.dropLast())
            let kept = truncated(nameBytes, toBytes: 255 - 1 - suffix.count)
            let temporaryName = [CChar(UInt8(ascii: "."))] + kept + suffix + [0]
            guard let component = FilePath.Component(platformString: temporaryName) else { throw .system(errno: EINVAL) }
            let temporary = folder.appending(component)
            do {
                let descriptor = try Errno.typed {
                    try FileDescriptor.open(temporary, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: permissions)
                }
                return (descriptor, temporary)
            } catch  where error == .fileExists {
                continue
            } catch {
                throw cause(of: error.rawValue, creatingIn: folder)
            }
        }
        throw .system(errno: EEXIST)
    }

    /// Makes a rename in `path`'s folder last: the folder's entry is on disk only once the folder
    /// is flushed.
    public static func syncFolder(of path: FilePath) {
        // Best effort: the file is already in place, and a failure here would only make the caller
        // report an error about a file that exists.
        guard let folder = try? FileDescriptor.open(path.containingFolder, .readOnly, options: [.directory, .closeOnExec]) else { return }
        _ = fsync(folder.rawValue)
        try? folder.close()
    }

    /// A name cut to fit `limit` bytes, so that a long output name still leaves room for the
    /// temporary suffix within NAME_MAX; never inside a UTF-8 character.
    private static func truncated(_ name: [CChar], toBytes limit: Int) -> [CChar] {
        guard name.count > limit else { return name }
        var end = limit
        // 10xxxxxx is the middle of a UTF-8 character: step back to its start.
        while end > 0, UInt8(bitPattern: name[end]) & 0xC0 == 0x80 { end -= 1 }
        return Array(name[..<end])
    }

    /// Says which folder is the trouble when creating a file failed.
    private static func cause(of code: Int32, creatingIn folder: FilePath) -> Failure {
        switch code {
        case ENOENT:
            return .folderMissing(folder)
        case ENOTDIR:
            // Some part of the folder's path is a file: the deepest part that exists.
            var candidate = folder
            var status = stat()
            while true {
                if candidate.withPlatformString({ stat($0, &status) }) == 0 {
                    return (status.st_mode & S_IFMT) == S_IFDIR ? .system(errno: code) : .notAFolder(candidate)
                }
                if candidate == "/" || candidate == "." { return .system(errno: code) }
                candidate = candidate.containingFolder
            }
        default:
            return .system(errno: code)
        }
    }
}

extension TemporarySibling.Failure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .system(let code): SystemError.text(code)
        case .folderMissing(let folder): "the folder \(folder.text) does not exist"
        case .notAFolder(let path): "\(path.text) is a file, not a folder"
        case .notARegularFile: "not a regular file (a device, a pipe or a socket)"
        }
    }
}
