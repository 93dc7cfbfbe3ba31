import CSndFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libsndfile's virtual I/O over a file descriptor, remembering the first system error.
///
/// Why not `sf_open`: libsndfile forgets write errors that happen while it closes a file (its
/// `psf_close` keeps only the result of the final `close`), yet that is when FLAC and Vorbis flush
/// their last frames and WAV and AIFF rewrite their headers. Doing the I/O here means a full disk is
/// noticed wherever it happens, and reported with its `errno`.
final class FileDescriptorIO {
    let fd: Int32
    /// The first `errno` a write, read or seek failed with; nil while all is well.
    private(set) var firstError: Int32?

    /// Works through `fd`, which the owner keeps open while libsndfile uses it and closes afterwards.
    init(fd: Int32) {
        self.fd = fd
    }

    private func record(_ code: Int32) {
        if firstError == nil { firstError = code }
    }

    /// The callbacks libsndfile calls, with a pointer to this object as their user data. libsndfile
    /// copies the structure when it opens the file.
    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in
            let io = FileDescriptorIO.from(user)
            var status = stat()
            guard fstat(io.fd, &status) == 0 else {
                io.record(errno)
                return -1
            }
            return sf_count_t(status.st_size)
        },
        seek: { offset, whence, user in
            let io = FileDescriptorIO.from(user)
            let position = lseek(io.fd, off_t(offset), whence)
            if position < 0 { io.record(errno) }
            return sf_count_t(position)
        },
        read: { buffer, count, user in
            let io = FileDescriptorIO.from(user)
            guard let buffer, count > 0 else { return 0 }
            var done = 0
            while done < Int(count) {
                let result = read(io.fd, buffer + done, Int(count) - done)
                if result < 0, errno == EINTR { continue }
                if result < 0 {
                    io.record(errno)
                    break
                }
                if result == 0 { break }
                done += result
            }
            return sf_count_t(done)
        },
        write: { buffer, count, user in
            let io = FileDescriptorIO.from(user)
            guard let buffer, count > 0 else { return 0 }
            var done = 0
            // A short count means the disk filled up part way; the next write says why.
            while done < Int(count) {
                let result = write(io.fd, buffer + done, Int(count) - done)
                if result < 0, errno == EINTR { continue }
                if result <= 0 {
                    io.record(result < 0 ? errno : EIO)
                    break
                }
                done += result
            }
            return sf_count_t(done)
        },
        tell: { user in
            let io = FileDescriptorIO.from(user)
            let position = lseek(io.fd, 0, SEEK_CUR)
            if position < 0 { io.record(errno) }
            return sf_count_t(position)
        }
    )

    /// The user data to pass with `callbacks`. Valid while this object lives, which the owner of
    /// the `SNDFILE` guarantees by closing it first.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ user: UnsafeMutableRawPointer?) -> FileDescriptorIO {
        Unmanaged<FileDescriptorIO>.fromOpaque(user!).takeUnretainedValue()
    }
}
