import SystemPackage

/// A regular file open for reading: a folder, or a FIFO, a device or a socket put where a file
/// should be, is refused as it is opened. Closed when it goes.
///
/// A reference type: it owns a descriptor. Reads at an offset share no position, so several
/// threads may read one file at once.
public final class ReadableFile: Sendable {
    public let path: FilePath
    public let descriptor: FileDescriptor
    /// The file's size when it was opened.
    public let size: Int64

    public init(_ path: FilePath) throws(FileReadError) {
        let descriptor: FileDescriptor
        do {
            // Not blocking: opening a FIFO (or a serial device) would otherwise wait for a writer
            // forever before its kind could be checked. Reads of a regular file ignore it.
            descriptor = try Errno.typed { try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec]) }
        } catch {
            throw error == .noSuchFileOrDirectory ? .missing : .system(error)
        }
        let status: Stat
        do {
            status = try descriptor.stat()
        } catch {
            try? descriptor.close()
            throw .system(error)
        }
        guard status.type == .regular else {
            try? descriptor.close()
            throw status.type == .directory ? .folder : .notARegularFile
        }
        self.size = status.size
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        try? descriptor.close()
    }

    /// Fills `buffer` from the file's byte `offset` on, and says how many bytes it read: fewer than
    /// the buffer holds only at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            let count = try Errno.typed { try descriptor.read(fromAbsoluteOffset: offset + Int64(done), into: rest) }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Up to `count` bytes from the file's byte `offset` on: fewer only at the end of the file.
    public func read(upTo count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { buffer in Result { () throws(Errno) -> Int in try self.read(into: buffer, at: offset) } }.get()
        bytes.removeSubrange(read...)
        return bytes
    }

    /// The whole file, refused when it is larger than `limit` bytes. It is read in `parts` slices
    /// by `run`, which calls its body once for each slice from 0 to `parts` - 1, on other threads
    /// at once if it likes: for a large file, the copy out of the page cache and the page faults
    /// on the fresh buffer, serial work before any of it can be used, are then shared out. A file
    /// that shrank while it was read gives the bytes up to the first slice that came short.
    public func readAll(
        limit: Int, parts: Int = 1,
        run: (_ parts: Int, _ body: @escaping @Sendable (Int) -> Void) -> Void = { parts, body in (0..<parts).forEach(body) }
    )
        throws(FileReadError) -> [UInt8]
    {
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        let size = Int(self.size)
        let parts = max(1, min(parts, size))
        let partSize = size == 0 ? 0 : (size + parts - 1) / parts
        var outcomes = [Result<Int, Errno>](repeating: .success(0), count: parts)
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard size > 0 else { return }
            // Each part writes its own range of the buffer and its own outcome, and `run` returns
            // once every part has: what the pointers' types cannot tell the compiler.
            nonisolated(unsafe) let buffer = UnsafeMutableRawBufferPointer(buffer)
            outcomes.withUnsafeMutableBufferPointer { outcomes in
                nonisolated(unsafe) let outcomes = outcomes
                run(parts) { [self] part in
                    let range = part * partSize..<min(size, (part + 1) * partSize)
                    outcomes[part] = Result { () throws(Errno) -> Int in
                        try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[range]), at: Int64(range.lowerBound))
                    }
                }
            }
            for (part, outcome) in outcomes.enumerated() {
                switch outcome {
                case .failure(let error):
                    count = part * partSize
                    failure = error
                    return
                case .success(let read):
                    count = part * partSize + read
                    if count < min(size, (part + 1) * partSize) { return }
                }
            }
        }
        if let failure { throw .system(failure) }
        return bytes
    }
}
