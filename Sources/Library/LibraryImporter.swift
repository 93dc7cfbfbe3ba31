#if canImport(Glibc)
import Glibc
#endif
import Files
import SystemPackage

/// Copies files received from elsewhere (a download, a mail, a USB stick) into a
/// folder of the library, by default its `Inbox`.
///
/// A file is taken for its content, not its name: it must start like a MIDI file
/// (``MIDIFileDetector/hasMIDIContent(at:)``). A copy never replaces a file:
/// when the name is taken it becomes `Name (2).mid`, `Name (3).mid`… and it appears
/// whole or not at all: it is written to a hidden temporary file in the folder,
/// flushed to disk, and only then given its name with `link()`, which fails rather
/// than replace a file, so two imports racing for one name each get their own.
public struct LibraryImporter: Sendable {
    /// The folder copies go in; it is made, with the folders above it, when needed.
    public let folder: FilePath

    /// The library's folder for files just received, where imports go by default.
    public static let inboxFolderName = "Inbox"

    /// How many numbered names are tried before giving up on a name.
    static let nameAttempts = 10_000

    public init(folder: FilePath) {
        self.folder = folder
    }

    /// Copies the file at `source` into the folder and returns the copy's path.
    public func importFile(at source: FilePath) throws(LibraryImportError) -> FilePath {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
        let input = source.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard input >= 0 else { throw .unreadable(path: source, reason: SystemError.current) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .unreadable(path: source, reason: SystemError.current) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isFolder(path: source)
        default: throw .unreadable(path: source, reason: "not a regular file")
        }
        guard MIDIFileDetector.hasMIDIContent(at: source) else { throw .notMIDI(path: source) }
        guard let name = source.lastComponent else { throw .isFolder(path: source) }

        try makeFolder(folder)
        let temporary = try createTemporaryFile()
        do {
            try copy(from: input, source: source, to: temporary.fd)
        } catch {
            close(temporary.fd)
            Self.remove(temporary.path)
            throw error
        }
        guard close(temporary.fd) == 0 else {
            let reason = SystemError.current
            Self.remove(temporary.path)
            throw .cannotWrite(path: folder, reason: reason)
        }
        let destination = try claimName(for: name, giving: temporary.path)
        TemporarySibling.syncFolder(of: destination)
        return destination
    }

    /// Gives the temporary file the first free numbered name; the temporary name is
    /// gone afterwards, whatever happens.
    private func claimName(for name: FilePath.Component, giving temporary: FilePath) throws(LibraryImportError) -> FilePath {
        func failure(_ path: FilePath, _ reason: String) -> LibraryImportError {
            Self.remove(temporary)
            return .cannotWrite(path: path, reason: reason)
        }
        let names = NumberedFileName(name.bytes)
        for number in 1...Self.nameAttempts {
            let destination = folder.appending(names.candidate(number))
            if temporary.withPlatformString({ from in destination.withPlatformString { to in link(from, to) } }) == 0 {
                Self.remove(temporary)
                return destination
            }
            switch errno {
            case EEXIST:
                continue
            case EPERM, EOPNOTSUPP:
                // A file system without hard links (FAT, exFAT on a USB stick): the name is
                // reserved by creating it exclusively, then the copy is renamed over it.
                let reservation = destination.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
                if reservation < 0, errno == EEXIST { continue }
                guard reservation >= 0 else { throw failure(destination, SystemError.current) }
                close(reservation)
                guard temporary.withPlatformString({ from in destination.withPlatformString { to in rename(from, to) } }) == 0 else {
                    let reason = SystemError.current
                    Self.remove(destination)
                    throw failure(destination, reason)
                }
                return destination
            default:
                throw failure(destination, SystemError.current)
            }
        }
        throw failure(folder.appending(name), "\(Self.nameAttempts) files by this name already")
    }

    /// A new hidden file in the folder: the collector skips hidden names, so a copy in
    /// progress is never listed.
    private func createTemporaryFile() throws(LibraryImportError) -> (fd: Int32, path: FilePath) {
        for attempt in 0..<Self.nameAttempts {
            let path = folder.appending(".smfplay-import-\(getpid())-\(attempt)")
            let fd = path.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
            if fd >= 0 { return (fd, path) }
            if errno != EEXIST { throw .cannotWrite(path: folder, reason: SystemError.current) }
        }
        throw .cannotWrite(path: folder, reason: "too many temporary files")
    }

    /// Copies everything from `input` to `output` and flushes it to disk.
    private func copy(from input: Int32, source: FilePath, to output: Int32) throws(LibraryImportError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: source, reason: SystemError.current) }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw .cannotWrite(path: folder, reason: SystemError.current) }
                written += result
            }
        }
        guard fsync(output) == 0 else { throw .cannotWrite(path: folder, reason: SystemError.current) }
    }

    /// Makes `path` and the folders above it, as `mkdir -p` does.
    private func makeFolder(_ path: FilePath) throws(LibraryImportError) {
        if path.withPlatformString({ mkdir($0, 0o777) }) == 0 { return }
        switch errno {
        case EEXIST:
            guard path.isFolder else { throw .cannotWrite(path: path, reason: "not a folder") }
        case ENOENT:
            let parent = path.removingLastComponent()
            guard parent != path, !parent.isEmpty else { throw .cannotWrite(path: path, reason: SystemError.current) }
            try makeFolder(parent)
            guard path.withPlatformString({ mkdir($0, 0o777) }) == 0 || errno == EEXIST else {
                throw .cannotWrite(path: path, reason: SystemError.current)
            }
        default:
            throw .cannotWrite(path: path, reason: SystemError.current)
        }
    }

    private static func remove(_ path: FilePath) {
        _ = path.withPlatformString { unlink($0) }
    }
}
