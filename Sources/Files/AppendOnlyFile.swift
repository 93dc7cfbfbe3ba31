import SystemPackage

/// A file that is only ever added to at its end (a log), created when missing as the umask says;
/// the one exception, a write the disk took only part of, is taken back. Closed when it goes.
public final class AppendOnlyFile: Sendable {
    public let path: FilePath
    private let descriptor: FileDescriptor

    public init(_ path: FilePath) throws(FileWriteError) {
        do {
            descriptor = try Errno.typed {
                try FileDescriptor.open(
                    path, .writeOnly, options: [.append, .create, .closeOnExec], permissions: [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
            }
        } catch {
            throw FileWriteError(path: path, reason: SystemError.text(error.rawValue))
        }
        self.path = path
    }

    deinit {
        try? descriptor.close()
    }

    /// Adds `bytes` at the end of the file in one `write(2)`, so that what another process appends
    /// meanwhile goes before or after them, never among them; says how many were written, fewer
    /// when the disk filled up.
    public func append(_ bytes: [UInt8]) throws(Errno) -> Int {
        try Errno.typed { try bytes.withUnsafeBytes { try descriptor.write($0) } }
    }

    /// Cuts the last `count` bytes off the file: the part of a line a full disk took, which one
    /// writer (the only one of this file) takes back before it appends again.
    public func takeBack(_ count: Int) throws(Errno) {
        guard count > 0 else { return }
        try Errno.typed {
            let size = try descriptor.seek(offset: 0, from: .end)
            try descriptor.resize(to: max(0, size - Int64(count)))
        }
    }
}
