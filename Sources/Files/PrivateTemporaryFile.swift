import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A copy of part of a file, in the temporary folder, readable by this user alone and removed when
/// dropped: for a library that opens files only by path (libinstpatch, FluidSynth's DLS loader,
/// given the DLS bank inside an RMID file), or a file that is not on disk (an RMID file's bank in
/// an archive).
///
/// A reference type: it owns a file on disk.
public final class PrivateTemporaryFile {
    public let path: FilePath

    /// Copies the bytes `part` of `source` into a new file `smfplay-<pid>-<random>.<fileExtension>` in
    /// `$TMPDIR` (or `/tmp`). Fewer bytes only when the source is shorter.
    public convenience init(copying part: Range<Int64>, of source: ReadableFile, fileExtension: String) throws(FileWriteError) {
        try self.init(fileExtension: fileExtension) { (descriptor) throws(Errno) in
            let chunk = 1 << 20
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { buffer.deallocate() }
            var offset = part.lowerBound
            while offset < part.upperBound {
                let wanted = Int(min(Int64(chunk), part.upperBound - offset))
                let got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: offset)
                if got == 0 { break }
                _ = try Errno.typed { try descriptor.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<got])) }
                offset += Int64(got)
            }
        }
    }

    /// Writes `bytes` into a new file, named as above: a part of a file read from an archive.
    public convenience init(holding bytes: ArraySlice<UInt8>, fileExtension: String) throws(FileWriteError) {
        try self.init(fileExtension: fileExtension) { (descriptor) throws(Errno) in
            _ = try Errno.typed { try bytes.withUnsafeBytes { try descriptor.writeAll($0) } }
        }
    }

    /// Makes the file, readable by this user alone, and has `write` fill it; removes it if that fails.
    private init(fileExtension: String, write: (FileDescriptor) throws(Errno) -> Void) throws(FileWriteError) {
        let folder = FilePath(getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        var made: (FilePath, FileDescriptor)?
        var failure = Errno.fileExists
        // O_EXCL: a name another process (or another song of this one) holds is never shared.
        for _ in 0..<100 where made == nil {
            let candidate = folder.appending("smfplay-\(getpid())-\(UInt32.random(in: .min ... .max)).\(fileExtension)")
            do {
                let descriptor = try Errno.typed {
                    try FileDescriptor.open(
                        candidate, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite])
                }
                made = (candidate, descriptor)
            } catch  where error == .fileExists {
                continue
            } catch {
                failure = error
                break
            }
        }
        guard let (path, descriptor) = made else { throw FileWriteError(path: folder, reason: SystemError.text(failure.rawValue)) }
        self.path = path
        do throws(Errno) {
            defer { try? descriptor.close() }
            try write(descriptor)
        } catch {
            unlink(path)
            throw FileWriteError(path: path, reason: SystemError.text(error.rawValue))
        }
    }

    deinit {
        unlink(path)
    }

    private func unlink(_ path: FilePath) {
        _ = path.withPlatformString { Glibc.unlink($0) }
    }
}
