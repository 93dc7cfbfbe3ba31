import CSndFile
import SystemPackage

/// libsndfile's virtual I/O over a file descriptor, remembering the first system error.
///
/// Why not `sf_open`: libsndfile forgets write errors that happen while it closes a file (its
/// `psf_close` keeps only the result of the final `close`), yet that is when FLAC and Vorbis flush
/// their last frames and WAV and AIFF rewrite their headers. Doing the I/O here means a full disk is
/// noticed wherever it happens, and reported with its `errno`.
final class FileDescriptorIO {
    let descriptor: FileDescriptor
    /// The first `errno` a write, read or seek failed with; nil while all is well.
    private(set) var firstError: Int32?

    /// Works through `descriptor`, which the owner keeps open while libsndfile uses it and closes
    /// afterwards.
    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    private func record(_ error: any Error) {
        if firstError == nil { firstError = (error as? Errno ?? .ioError).rawValue }
    }

    /// What `body` returns, or nil with its error recorded.
    private func recording<Result>(_ body: () throws -> Result) -> Result? {
        do {
            return try body()
        } catch {
            record(error)
            return nil
        }
    }

    /// The callbacks libsndfile calls, with a pointer to this object as their user data. libsndfile
    /// copies the structure when it opens the file.
    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { user in
            let io = FileDescriptorIO.from(user)
            return io.recording { try io.descriptor.stat().size } ?? -1
        },
        seek: { offset, whence, user in
            let io = FileDescriptorIO.from(user)
            return io.recording { try io.descriptor.seek(offset: offset, from: FileDescriptor.SeekOrigin(rawValue: whence)) } ?? -1
        },
        read: { buffer, count, user in
            let io = FileDescriptorIO.from(user)
            guard let buffer, count > 0 else { return 0 }
            var done = 0
            while done < Int(count) {
                let rest = UnsafeMutableRawBufferPointer(start: buffer + done, count: Int(count) - done)
                guard let result = io.recording({ try io.descriptor.read(into: rest) }), result > 0 else { break }
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
                let rest = UnsafeRawBufferPointer(start: buffer + done, count: Int(count) - done)
                guard let result = io.recording({ try io.descriptor.write(rest) }) else { break }
                guard result > 0 else {
                    io.record(Errno.ioError)
                    break
                }
                done += result
            }
            return sf_count_t(done)
        },
        tell: { user in
            let io = FileDescriptorIO.from(user)
            return io.recording { try io.descriptor.seek(offset: 0, from: .current) } ?? -1
        }
    )

    /// The user data to pass with `callbacks`. Valid while this object lives, which the owner of
    /// the `SNDFILE` guarantees by closing it first.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ user: UnsafeMutableRawPointer?) -> FileDescriptorIO {
        Unmanaged<FileDescriptorIO>.fromOpaque(user!).takeUnretainedValue()
    }
}
