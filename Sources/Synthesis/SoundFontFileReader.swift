import CFluidSynth
import Files
import SystemPackage
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// How FluidSynth reads a SoundFont file here: through a 64 KB buffer of our own with `pread`,
/// instead of its default `stdio` calls. Its parser reads the preset, instrument and sample
/// headers a few bytes at a time (tens of thousands of `fread`s, each taking the stream's lock),
/// and that was a tenth of a small SoundFont's load: TimGM6mb loads in 19.0 ms instead of 20.7
/// (medians of 12, one thread). Reads as large as the buffer (the samples, read in one piece) go
/// straight into FluidSynth's memory, a large one in parts on two threads (see `readLarge`).
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

    /// One open file (or the part of one that holds the bank), FluidSynth's position in it, and
    /// what the buffer holds. Positions count from the bank's first byte.
    private struct OpenFile {
        let file: ReadableFile
        /// Where the bank starts in the file, and its size.
        let start: Int64
        let size: Int64
        var position: Int64 = 0
        /// The buffer holds the bank's bytes `bufferStart ..< bufferStart + bufferCount`.
        var bufferStart: Int64 = 0
        var bufferCount = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: SoundFontFileReader.bufferSize, alignment: 16)

        /// Reads up to `count` bytes at the bank's `offset`, none past its end.
        func read(into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
            let count = Int(max(0, min(Int64(count), size - offset)))
            return count == 0 ? 0 : SoundFontFileReader.readLarge(file, into: destination, count: count, at: start + offset)
        }
    }

    /// What marks a name as the bytes of a bank inside another file (``name(ofBank:in:stamp:)``):
    /// no file's path starts with a control character.
    private static let partPrefix = Array("\u{1}smfplay-part:".utf8)

    /// The name FluidSynth is given for a bank that is a part of another file (an RMID file's
    /// embedded SoundFont): FluidSynth opens SoundFonts only by name, through this reader, which
    /// reads the part. Its sample cache knows a bank by this name too (it finds no modification
    /// time for a name that is no file), so the name holds the file's size and time: a file
    /// changed since is read anew, and the same one again shares the samples already loaded.
    static func name(ofBank bytes: Range<Int>, in path: FilePath, stamp: FileStamp) -> [CChar] {
        let fields = "\(bytes.lowerBound):\(bytes.count):\(stamp.size):\(stamp.modifiedSeconds).\(stamp.modifiedNanoseconds):"
        return (partPrefix + Array(fields.utf8) + path.bytes).map { CChar(bitPattern: $0) } + [0]
    }

    /// The file and the part of it a name made by ``name(ofBank:in:stamp:)`` stands for; the
    /// whole file for any other name.
    private static func part(named name: UnsafePointer<CChar>) -> (path: FilePath, bytes: Range<Int64>?) {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name))
        guard bytes.starts(with: partPrefix) else { return (FilePath(platformString: name), nil) }
        let fields = bytes.dropFirst(partPrefix.count).split(separator: UInt8(ascii: ":"), maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let start = Int64(String(decoding: fields[0], as: UTF8.self)),
            let count = Int64(String(decoding: fields[1], as: UTF8.self)), start >= 0, count >= 0
        else { return (FilePath(platformString: name), nil) }
        return (FilePath(bytes: fields[4]), start..<start + count)
    }

    private static let open: @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? = { name in
        guard let name else { return nil }
        let (path, part) = Self.part(named: name)
        guard let opened = try? ReadableFile(path) else { return nil }
        let bytes = part ?? 0..<opened.size
        // A part that runs past the file's end was cut since it was found: FluidSynth's reads there fail.
        let file = UnsafeMutablePointer<OpenFile>.allocate(capacity: 1)
        file.initialize(to: OpenFile(file: opened, start: bytes.lowerBound, size: min(Int64(bytes.count), max(0, opened.size - bytes.lowerBound))))
        return UnsafeMutableRawPointer(file)
    }

    /// FLUID_OK when all `count` bytes were read, FLUID_FAILED otherwise (the end of the file
    /// included), as FluidSynth asks.
    private static let read: @convention(c) (UnsafeMutableRawPointer?, fluid_long_long_t, UnsafeMutableRawPointer?) -> Int32 = {
        destination, count, handle in
        guard let handle, var destination, count >= 0 else { return FLUID_FAILED }
        let file = handle.assumingMemoryBound(to: OpenFile.self)
        var remaining = Int64(count)
        while remaining > 0 {
            let buffered = file.pointee.bufferStart..<file.pointee.bufferStart + Int64(file.pointee.bufferCount)
            if buffered.contains(file.pointee.position) {
                let offset = Int(file.pointee.position - buffered.lowerBound)
                let taken = Int(min(remaining, buffered.upperBound - file.pointee.position))
                destination.copyMemory(from: file.pointee.buffer + offset, byteCount: taken)
                destination += taken
                remaining -= Int64(taken)
                file.pointee.position += Int64(taken)
            } else if remaining >= Int64(bufferSize) {
                let got = file.pointee.read(into: destination, count: Int(remaining), at: file.pointee.position)
                file.pointee.position += Int64(got)
                guard got == Int(remaining) else { return FLUID_FAILED }
                remaining = 0
            } else {
                let got = file.pointee.read(into: file.pointee.buffer, count: bufferSize, at: file.pointee.position)
                guard got > 0 else { return FLUID_FAILED }
                file.pointee.bufferStart = file.pointee.position
                file.pointee.bufferCount = got
            }
        }
        return FLUID_OK
    }

    /// From this size on a read (the sample chunk of a SoundFont) is split in two.
    private static let splitReadSize = 2 * 1024 * 1024

    /// Reads up to `count` bytes at `offset` like `readFully`, a large read in two halves read at
    /// once, the second on a thread of its own where there is a second core: copying the samples
    /// out of the page cache, with the page faults on FluidSynth's fresh memory, is most of what
    /// is left of an .sf2's load after its scans (see `OpenMPThreads`). FluidR3_GM's load in
    /// `smfplay play` took 94–127 ms so, against 135–177 ms in one piece and fluidsynth's
    /// 140–220 ms (10 launches each, alternating). Fewer bytes only when a half came short.
    ///
    /// Not huge pages (`madvise(MADV_HUGEPAGE)` on FluidSynth's sample memory): they took 35,000
    /// page faults off that load, but made it slower after another program's load (188–251 ms
    /// against 157–196 on this VM, alternating with fluidsynth's), though faster back to back.
    private static func readLarge(_ file: ReadableFile, into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        guard count >= splitReadSize, WorkerThreads.processorCount > 1 else {
            return readFully(file, into: destination, count: count, at: offset)
        }
        let half = (count / 2 + 4095) & ~4095
        let parts = [0..<half, half..<count]
        // Each half is written by its own worker, and the results come once both are done: what
        // the pointer cannot tell the compiler.
        nonisolated(unsafe) let destination = destination
        let got = WorkerThreads.results(ofJobs: 2) { part in
            let range = parts[part]
            return readFully(file, into: destination + range.lowerBound, count: range.count, at: offset + Int64(range.lowerBound))
        }.map { $0.get() }
        return got[0] == half ? half + got[1] : got[0]
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file, none on an error.
    private static func readFully(_ file: ReadableFile, into destination: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        (try? file.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count), at: offset)) ?? 0
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
        file.pointee.buffer.deallocate()
        // The file closes as it goes.
        file.deinitialize(count: 1)
        file.deallocate()
        return FLUID_OK
    }
}
