#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Copies files received from elsewhere (a download, a mail, a USB stick) into a
/// folder of the library, by default its `Inbox`.
///
/// A file is taken for its content, not its name: it must start like a MIDI file
/// (``MIDIFileDetector.hasMIDIContent(at:)``). A copy never replaces a file:
/// when the name is taken it becomes `Name (2).mid`, `Name (3).mid`… and it appears
/// whole or not at all: it is written to a hidden temporary file in the folder,
/// flushed to disk, and only then given its name with `link()`, which fails rather
/// than replace a file, so two imports racing for one name each get their own.
public struct LibraryImporter: Sendable {
    /// The folder copies go in; it is made, with the folders above it, when needed.
    public let folder: String

    /// The library's folder for files just received, where imports go by default.
    public static let inboxFolderName = "Inbox"

    /// How many numbered names are tried before giving up on a name.
    static let nameAttempts = 10_000

    public init(folder: String) {
        self.folder = folder
    }

    /// Copies the file at `source` into the folder and returns the copy's path.
    public func importFile(atPath source: String) throws(LibraryImportError) -> String {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw .unreadable(path: source, reason: Self.lastError()) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .unreadable(path: source, reason: Self.lastError()) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isFolder(path: source)
        default: throw .unreadable(path: source, reason: "not a regular file")
        }
        guard MIDIFileDetector.hasMIDIContent(at: FilePath(source)) else { throw .notMIDI(path: source) }

        try makeFolder(folder)
        let temporary = try createTemporaryFile()
        do {
            try copy(from: input, source: source, to: temporary.fd)
        } catch {
            close(temporary.fd)
            unlink(temporary.path)
            throw error
        }
        guard close(temporary.fd) == 0 else {
            let reason = Self.lastError()
            unlink(temporary.path)
            throw .cannotWrite(path: folder, reason: reason)
        }
        let destination = try claimName(for: Self.fileName(of: source), giving: temporary.path)
        Self.syncFolder(folder)
        return destination
    }

    /// Gives the temporary file the first free numbered name; the temporary name is
    /// gone afterwards, whatever happens.
    private func claimName(for name: String, giving temporary: String) throws(LibraryImportError) -> String {
        func failure(_ path: String, _ reason: String) -> LibraryImportError {
            unlink(temporary)
            return .cannotWrite(path: path, reason: reason)
        }
        let names = NumberedFileName(name)
        for number in 1...Self.nameAttempts {
            let destination = Self.join(folder, names.candidate(number))
            if link(temporary, destination) == 0 {
                unlink(temporary)
                return destination
            }
            switch errno {
            case EEXIST:
                continue
            case EPERM, EOPNOTSUPP:
                // A file system without hard links (FAT, exFAT on a USB stick): the name is
                // reserved by creating it exclusively, then the copy is renamed over it.
                let reservation = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                if reservation < 0, errno == EEXIST { continue }
                guard reservation >= 0 else { throw failure(destination, Self.lastError()) }
                close(reservation)
                guard rename(temporary, destination) == 0 else {
                    let reason = Self.lastError()
                    unlink(destination)
                    throw failure(destination, reason)
                }
                return destination
            default:
                throw failure(destination, Self.lastError())
            }
        }
        throw failure(Self.join(folder, name), "\(Self.nameAttempts) files by this name already")
    }

    /// A new hidden file in the folder: the collector skips hidden names, so a copy in
    /// progress is never listed.
    private func createTemporaryFile() throws(LibraryImportError) -> (fd: Int32, path: String) {
        for attempt in 0..<Self.nameAttempts {
            let path = Self.join(folder, ".smfplay-import-\(getpid())-\(attempt)")
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, path) }
            if errno != EEXIST { throw .cannotWrite(path: folder, reason: Self.lastError()) }
        }
        throw .cannotWrite(path: folder, reason: "too many temporary files")
    }

    /// Copies everything from `input` to `output` and flushes it to disk.
    private func copy(from input: Int32, source: String, to output: Int32) throws(LibraryImportError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: source, reason: Self.lastError()) }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw .cannotWrite(path: folder, reason: Self.lastError()) }
                written += result
            }
        }
        guard fsync(output) == 0 else { throw .cannotWrite(path: folder, reason: Self.lastError()) }
    }

    /// Makes `path` and the folders above it, as `mkdir -p` does.
    private func makeFolder(_ path: String) throws(LibraryImportError) {
        if mkdir(path, 0o777) == 0 { return }
        switch errno {
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw .cannotWrite(path: path, reason: "not a folder")
            }
        case ENOENT:
            let parent = Self.parent(of: path)
            guard parent != path else { throw .cannotWrite(path: path, reason: Self.lastError()) }
            try makeFolder(parent)
            guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw .cannotWrite(path: path, reason: Self.lastError()) }
        default:
            throw .cannotWrite(path: path, reason: Self.lastError())
        }
    }

    /// Makes the new name last: a folder's entries are on disk only once the folder is flushed.
    private static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        // Best effort: the copy is in place already, and failing now would report an
        // error about a file that exists.
        _ = fsync(fd)
        close(fd)
    }

    private static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
