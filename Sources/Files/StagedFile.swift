import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file being written beside its destination, under a hidden ``TemporarySibling`` name, that
/// appears whole or not at all: the one way smfplay writes a file.
///
/// The guarantee, for every file smfplay writes: the bytes go to the temporary file; `commit`
/// flushes it to disk, renames it over the destination (or links it to a new name) and flushes the
/// folder, so that the rename itself lasts. Until then, an older file at the destination is
/// untouched. `discard`, a failure, or dropping an uncommitted file removes the temporary file. A
/// crash leaves at most the hidden temporary file, which listings skip (its name starts with a dot).
///
/// A reference type: it owns a descriptor and a file on disk.
public final class StagedFile {
    /// Where the file is to appear.
    public let destination: FilePath
    /// The hidden file written until `commit`.
    public let temporaryPath: FilePath
    /// The temporary file, open for reading and writing (libsndfile reads back what it wrote).
    public let descriptor: FileDescriptor

    private var isOpen = true
    private var isPending = true

    /// Creates the temporary file for `destination` with `permissions` (before the umask).
    public convenience init(destination: FilePath, permissions: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
        throws(TemporarySibling.Failure)
    {
        let (descriptor, temporary) = try TemporarySibling.create(for: destination, permissions: permissions)
        self.init(descriptor: descriptor, temporaryPath: temporary, destination: destination)
    }

    /// Takes over `descriptor`, open on `temporaryPath`. Tests pass other descriptors (such as
    /// `/dev/full`) here.
    public init(descriptor: FileDescriptor, temporaryPath: FilePath, destination: FilePath) {
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
        self.destination = destination
    }

    deinit {
        discard()
    }

    /// Appends `bytes`, however many writes it takes.
    public func write(_ bytes: some Sequence<UInt8>) throws(Errno) {
        _ = try Errno.typed { try descriptor.writeAll(bytes) }
    }

    /// Flushes the file and renames it over `destination`, replacing what is there.
    public func commit() throws(Errno) {
        try flushAndClose()
        let renamed = temporaryPath.withPlatformString { from in destination.withPlatformString { to in rename(from, to) } }
        guard renamed == 0 else { throw fail(Errno.current) }
        isPending = false
        TemporarySibling.syncFolder(of: destination)
    }

    /// Flushes the file and gives it the name `path` only if nothing has it: false when the name is
    /// taken (the file stays staged, for another name). Through `link`, which never replaces a file,
    /// so that two writers racing for one name each get their own; on a file system without hard
    /// links (FAT, exFAT on a USB stick) the name is first reserved by creating it exclusively.
    public func commit(asNewFile path: FilePath) throws(Errno) -> Bool {
        try flushAndClose()
        if temporaryPath.withPlatformString({ from in path.withPlatformString { to in link(from, to) } }) == 0 {
            _ = temporaryPath.withPlatformString { unlink($0) }
        } else {
            switch errno {
            case EEXIST:
                return false
            case EPERM, EOPNOTSUPP:
                do {
                    try path.createNewFile(permissions: [.ownerReadWrite, .groupRead, .otherRead])
                } catch  where error == .fileExists {
                    return false
                } catch {
                    throw fail(error)
                }
                guard temporaryPath.withPlatformString({ from in path.withPlatformString { to in rename(from, to) } }) == 0 else {
                    let cause = Errno.current
                    _ = path.withPlatformString { unlink($0) }
                    throw fail(cause)
                }
            default:
                throw fail(Errno.current)
            }
        }
        isPending = false
        TemporarySibling.syncFolder(of: path)
        return true
    }

    /// Gives up: removes the temporary file (on a full disk its space is wanted back at once).
    public func discard() {
        closeIfOpen()
        guard isPending else { return }
        isPending = false
        _ = temporaryPath.withPlatformString { unlink($0) }
    }

    private func flushAndClose() throws(Errno) {
        precondition(isPending, "\(destination.text): committed after it was committed or discarded")
        guard isOpen else { return }
        while fsync(descriptor.rawValue) != 0 {
            guard errno == EINTR else { throw fail(Errno.current) }
        }
        isOpen = false
        // Linux releases the descriptor even when close fails (NFS reports write errors there), so
        // it is never retried.
        guard close(descriptor.rawValue) == 0 else { throw fail(Errno.current) }
    }

    private func closeIfOpen() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor.rawValue)
    }

    private func fail(_ cause: Errno) -> Errno {
        discard()
        return cause
    }
}
