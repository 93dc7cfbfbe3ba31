import CSndFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libsndfile's virtual I/O onto a descriptor that only goes forward: a pipe, standard output.
///
/// libsndfile's encoders go back at the end to patch what they wrote first (FLAC's length and
/// checksum); a stream cannot be patched, and the bytes it writes there would land after the
/// audio as garbage. So a seek anywhere but where the stream is answers "cannot", and what
/// libsndfile writes from then on is dropped. libsndfile's own pipe support (`sf_open_fd`) does
/// not do this: it appends the patch, and FLAC decoders lose sync on it.
final class PipeOutputIO {
    let fd: Int32
    /// Bytes written so far: where the stream is.
    private(set) var position: sf_count_t = 0
    /// The first `errno` a write failed with; nil while all is well.
    private(set) var firstError: Int32?
    /// libsndfile went back to patch a header: nothing more reaches the stream.
    private var isPatching = false

    /// Writes to `fd`, which stays open: the caller owns it.
    init(fd: Int32) {
        self.fd = fd
    }

    /// Writes all of `bytes`, however many writes it takes; false after an error (see `firstError`).
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, firstError == nil else { return firstError == nil }
        var done = 0
        while done < bytes.count {
            let result = Glibc.write(fd, base + done, bytes.count - done)
            if result < 0, errno == EINTR { continue }
            if result <= 0 {
                firstError = result < 0 ? errno : EIO
                return false
            }
            done += result
        }
        position += sf_count_t(done)
        return true
    }

    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in PipeOutputIO.from(user).position },
        seek: { offset, whence, user in
            let io = PipeOutputIO.from(user)
            let target =
                switch whence {
                case SEEK_CUR, SEEK_END: io.position + offset
                default: offset
                }
            guard target == io.position else {
                io.isPatching = true
                return -1
            }
            return io.position
        },
        read: { _, _, _ in 0 },
        write: { buffer, count, user in
            let io = PipeOutputIO.from(user)
            guard let buffer, count > 0, !io.isPatching else { return count }
            return io.write(UnsafeRawBufferPointer(start: buffer, count: Int(count))) ? count : 0
        },
        tell: { user in PipeOutputIO.from(user).position }
    )

    /// The user data to pass with `callbacks`, valid while this object lives.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ user: UnsafeMutableRawPointer?) -> PipeOutputIO {
        Unmanaged<PipeOutputIO>.fromOpaque(user!).takeUnretainedValue()
    }
}
