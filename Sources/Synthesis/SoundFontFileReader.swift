#if canImport(Glibc)
import Glibc
#endif
import CFluidSynth

/// How FluidSynth reads a SoundFont file here: through a 64 KB buffer of our own with `pread`,
/// instead of its default `stdio` calls. Its parser reads the preset, instrument and sample
/// headers a few bytes at a time (tens of thousands of `fread`s, each taking the stream's lock),
/// and that was a tenth of a small SoundFont's load: TimGM6mb loads in 19.0 ms instead of 20.7
/// (medians of 12, one thread). Reads as large as the buffer (the samples, read in one piece) go
/// straight into FluidSynth's memory, which is first asked to be backed by 2 MB pages (see
/// `adviseHugePages`).
///
/// Not `mmap`: a file cut short by another program while it is mapped kills the reader with
/// SIGBUS, where a short read is only a SoundFont FluidSynth refuses.
///
/// The callbacks keep all their state in the handle they return, so loads on several threads at
/// once do not meet.
enum SoundFontFileReader {
    /// Puts in front of `synth`'s own loaders one reading files this way (FluidSynth tries its
    /// loaders in turn, so a file this one cannot read is still offered to the others). The synth
    /// owns the loader. Must be called before the synth's first SoundFont is loaded: FluidSynth
    /// takes no loader after that.
    static func install(in synth: OpaquePointer, settings: OpaquePointer) {
        guard let loader = new_fluid_defsfloader(settings) else { return }
        guard fluid_sfloader_set_callbacks(loader, open, read, seek, tell, close) == FLUID_OK else {
            delete_fluid_sfloader(loader)
            return
        }
        fluid_synth_add_sfloader(synth, loader)
    }

    private static let bufferSize = 64 * 1024

    /// One open file: the descriptor, FluidSynth's position in it, and what the buffer holds.
    private struct OpenFile {
        let descriptor: Int32
        let size: Int64
        var position: Int64 = 0
        /// The buffer holds the file's bytes `bufferStart ..< bufferStart + bufferCount`.
        var bufferStart: Int64 = 0
        var bufferCount = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: SoundFontFileReader.bufferSize, alignment: 16)
    }

    private static let open: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? = { path in
        guard let path else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            _ = Glibc.close(descriptor)
            return nil
        }
        let file = UnsafeMutablePointer<OpenFile>.allocate(capacity: 1)
        file.initialize(to: OpenFile(descriptor: descriptor, size: Int64(status.st_size)))
        return UnsafeMutableRawPointer(file)
    }

    /// FLUID_OK when all `count` bytes were read, FLUID_FAILED otherwise (the end of the file
    /// included), as FluidSynth asks.
    private static let read: @convention(c) (UnsafeMutableRawPointer?, fluid_long_long_t, UnsafeMutableRawPointer?) -> Int32 = { destination, count, handle in
        guard let handle, var destination, count >= 0 else { return FLUID_FAILED }
        let file = handle.assumingMemoryBound(to: OpenFile.self)
        var remaining = Int64(count)
        while remaining > 0 {
            let buffered = file.pointee.bufferStart ..< file.pointee.bufferStart + Int64(file.pointee.bufferCount)
            if buffered.contains(file.pointee.position) {
                let offset = Int(file.pointee.position - buffered.lowerBound)
                let taken = Int(min(remaining, buffered.upperBound - file.pointee.position))
                destination.copyMemory(from: file.pointee.buffer + offset, byteCount: taken)
                destination += taken
                remaining -= Int64(taken)
                file.pointee.position += Int64(taken)
            } else if remaining >= Int64(bufferSize) {
                adviseHugePages(destination, count: Int(remaining))
                let got = readFully(file.pointee.descriptor, into: destination, count: Int(remaining), at: file.pointee.position)
                file.pointee.position += Int64(got)
                guard got == Int(remaining) else { return FLUID_FAILED }
                remaining = 0
            } else {
                let got = readFully(file.pointee.descriptor, into: file.pointee.buffer, count: bufferSize, at: file.pointee.position)
                guard got > 0 else { return FLUID_FAILED }
                file.pointee.bufferStart = file.pointee.position
                file.pointee.bufferCount = got
            }
        }
        return FLUID_OK
    }

    private static let hugePageSize = 2 * 1024 * 1024

    /// Asks the kernel to back the 2 MB pages wholly inside `destination ..< destination + count`
    /// with huge pages, before the samples are read into them (transparent huge pages are often
    /// given only where asked for: `madvise` in /sys/kernel/mm/transparent_hugepage/enabled). FluidSynth's sample memory is one
    /// `malloc` of the whole sample chunk, read whole, so none of it is wasted; each 4 KB page
    /// took a fault: FluidR3_GM's load took 45,000 of them, and `smfplay render` of a chord with
    /// it 277 ms (288 ms of CPU); with this 9,400 faults, 237 ms (231 ms of CPU), `perf stat -r
    /// 10`, two batches each. Where they are off, or always on, the advice changes nothing.
    private static func adviseHugePages(_ destination: UnsafeMutableRawPointer, count: Int) {
        let start = (Int(bitPattern: destination) + hugePageSize - 1) & ~(hugePageSize - 1)
        let end = (Int(bitPattern: destination) + count) & ~(hugePageSize - 1)
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, end - start, MADV_HUGEPAGE)
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file or on an error.
    private static func readFully(_ descriptor: Int32, into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        var done = 0
        while done < count {
            let got = pread(descriptor, destination + done, count - done, off_t(offset) + off_t(done))
            if got > 0 {
                done += got
            } else if got < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return done
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, fluid_long_long_t, Int32) -> Int32 = { handle, offset, origin in
        guard let handle else { return FLUID_FAILED }
        let file = handle.assumingMemoryBound(to: OpenFile.self)
        let base: Int64
        switch origin {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = file.pointee.position
        case SEEK_END: base = file.pointee.size
        default: return FLUID_FAILED
        }
        let (target, overflow) = base.addingReportingOverflow(Int64(offset))
        guard !overflow, target >= 0 else { return FLUID_FAILED }
        file.pointee.position = target
        return FLUID_OK
    }

    private static let tell: @convention(c) (UnsafeMutableRawPointer?) -> fluid_long_long_t = { handle in
        guard let handle else { return fluid_long_long_t(FLUID_FAILED) }
        return fluid_long_long_t(handle.assumingMemoryBound(to: OpenFile.self).pointee.position)
    }

    private static let close: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { handle in
        guard let handle else { return FLUID_FAILED }
        let file = handle.assumingMemoryBound(to: OpenFile.self)
        let closed = Glibc.close(file.pointee.descriptor) == 0
        file.pointee.buffer.deallocate()
        file.deinitialize(count: 1)
        file.deallocate()
        return closed ? FLUID_OK : FLUID_FAILED
    }
}
