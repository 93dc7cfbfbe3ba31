#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads a whole file, refusing anything that is not a regular file of a sane size.
enum FileBytes {
    static func read(path: String, limit: Int) throws(SMFFileError) -> [UInt8] {
        // O_NONBLOCK: without it, opening a FIFO (or a serial device) waits for the
        // other end before fstat can say it is not a file. It does not change reads
        // of regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: path, reason: systemError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: systemError()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(path: path, size: size, limit: limit) }
        var readError: String?
        // The file may shrink while it is read; never trust the size for more than the buffer's capacity.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let result = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if result > 0 {
                    count += result
                } else if result == 0 {
                    return
                } else if errno != EINTR {
                    readError = systemError()
                    return
                }
            }
        }
        if let readError { throw .unreadable(path: path, reason: readError) }
        return bytes
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
