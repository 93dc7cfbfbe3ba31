#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Files
import SystemPackage

/// Loads a whole file, refusing anything that is not a regular file of a sane size.
enum FileBytes {
    static func read(path: FilePath, limit: Int) throws(SMFFileError) -> [UInt8] {
        // O_NONBLOCK: without it, opening a FIFO (or a serial device) waits for the
        // other end before fstat can say it is not a file. It does not change reads
        // of regular files.
        let fd = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw .unreadable(path: path, reason: SystemError.current) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: SystemError.current) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(path: path, size: size, limit: limit) }
        var readError: String?
        // The file may shrink while it is read; never trust the size for more than the buffer's capacity.
        // A large file is read in slices on all cores: the copy into the fresh buffer and
        // its page faults, serial work before any track can be parsed, are shared out.
        let slices = size >= 1 << 20 ? 8 : 1
        let sliceSize = (size + slices - 1) / slices
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard size > 0 else { return }
            nonisolated(unsafe) let base = buffer.baseAddress!
            let jobs = ConcurrentResults<(read: Int, error: String?), Never>(count: slices)
            jobs.fill { slice in
                let start = slice * sliceSize
                let end = min(size, start + sliceSize)
                var done = start
                while done < end {
                    let result = pread(fd, base + done, end - done, off_t(done))
                    if result > 0 {
                        done += result
                    } else if result == 0 {
                        break
                    } else if errno != EINTR {
                        return (done - start, SystemError.current)
                    }
                }
                return (done - start, nil)
            }
            // Keep the bytes up to the first short slice (the file shrank) or error.
            for (slice, result) in jobs.results().enumerated() {
                let (read, error) = result.get()
                count = slice * sliceSize + read
                if let error { readError = error; return }
                if count < min(size, (slice + 1) * sliceSize) { return }
            }
        }
        if let readError { throw .unreadable(path: path, reason: readError) }
        return bytes
    }
}
