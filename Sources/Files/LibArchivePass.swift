import CArchive
import LibraryLoader

#if canImport(Glibc)
    import Glibc
#endif

/// A pass over an archive's entries by libarchive, in the order they are stored: each entry's data
/// can be read once, before the next entry is asked for. A reference type: it owns libarchive's
/// state.
///
/// Names come out as the archive holds them: a ZIP name without the UTF-8 flag (Shift-JIS, in the
/// Japanese archives) is its bytes, untouched; one with the flag, and 7z's, are UTF-8; an LZH
/// archive's, which say nothing of their encoding, are read as Shift-JIS (CP932) into UTF-8: read
/// as bytes, a Shift-JIS name's second byte 0x5C would part it as a `\` does. libarchive
/// converts names to the thread's locale, and fails for the C locale smfplay runs in: each call is
/// made under a UTF-8 locale of the thread's own (`uselocale`), the process's left alone.
final class LibArchivePass {
    private let archive: OpaquePointer
    /// The archive's bytes when it came from memory: libarchive reads them where they lie.
    private let memory: UnsafeMutableRawBufferPointer?
    /// The file, kept open while libarchive reads its descriptor.
    private let file: ReadableFile?
    private static let readBlock = 64 * 1024
    /// `AE_IFREG` and `AE_IFDIR`, macros Swift does not import.
    private static let regularFile: UInt32 = 0o100000
    private static let folder: UInt32 = 0o040000

    init(_ source: ArchiveSource, format: ArchiveFormat) throws(ArchiveError) {
        if let reason = smfplay_load_libarchive() { throw .libraryMissing(reason: String(cString: reason)) }
        archive = archive_read_new()
        switch format {
        case .zip: archive_read_support_format_zip(archive)
        case .sevenZip: archive_read_support_format_7zip(archive)
        case .rar:
            archive_read_support_format_rar(archive)
            archive_read_support_format_rar5(archive)
        case .tar:
            archive_read_support_filter_all(archive)
            archive_read_support_format_tar(archive)
        case .lzh:
            archive_read_support_format_lha(archive)
            // The conversion is made now, to the locale of now: the UTF-8 one.
            let archive = archive
            try? Self.inUTF8Locale { () throws(ArchiveError) in _ = archive_read_set_format_option(archive, "lha", "hdrcharset", "CP932") }
        }
        let opened: Int32
        switch source {
        case .file(let readable):
            file = readable
            memory = nil
            opened = archive_read_open_fd(archive, readable.descriptor.rawValue, Self.readBlock)
        case .bytes(let bytes):
            file = nil
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
            memory = copy
            opened = archive_read_open_memory(archive, copy.baseAddress, bytes.count)
        }
        // Every property is set: a throw from here on runs deinit, which frees libarchive's state
        // and the copy (freed here too, they were freed twice: an LZH cut inside its first header crashed).
        guard opened == ARCHIVE_OK else { throw .damaged(reason: Self.message(archive)) }
    }

    deinit {
        archive_read_free(archive)
        memory?.deallocate()
    }

    /// The next entry, or nil after the last.
    func nextEntry() throws(ArchiveError) -> ArchiveEntry? {
        try Self.inUTF8Locale { () throws(ArchiveError) -> ArchiveEntry? in
            var entry: OpaquePointer?
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw .damaged(reason: Self.message(archive)) }
            let name =
                archive_entry_pathname(entry).map {
                    Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
                } ?? []
            let kind: ArchiveEntry.Kind =
                switch archive_entry_filetype(entry) {
                case Self.regularFile: .file
                case Self.folder: .folder
                default: .other
                }
            return ArchiveEntry(name: name, kind: kind, isEncrypted: archive_entry_is_encrypted(entry) != 0)
        }
    }

    /// The current entry's data; nil when it grows past `limit` bytes (the rest is not read).
    func readData(limit: Int) throws(ArchiveError) -> [UInt8]? {
        var data: [UInt8] = []
        var block = [UInt8](repeating: 0, count: Self.readBlock)
        while true {
            let count = block.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            guard count > 0 else { throw .damaged(reason: Self.message(archive)) }
            guard data.count + count <= limit else { return nil }
            data += block[..<count]
        }
    }

    /// Where the current entry's header starts in the archive (an LZH member's header is read
    /// there for what libarchive does not say: see ``LZHHeader``).
    var headerPosition: Int64 { archive_read_header_position(archive) }

    /// The bytes decompressed so far, skipped ones included where the format must decompress them
    /// (a compressed tar).
    var decompressedBytes: Int64 { archive_filter_bytes(archive, 0) }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "not an archive libarchive reads"
    }

    /// A UTF-8 locale, made once, for the calls that give names.
    nonisolated(unsafe) private static let utf8Locale = newlocale(1 << LC_CTYPE, "C.UTF-8", nil)

    private static func inUTF8Locale<Result>(_ body: () throws(ArchiveError) -> Result) throws(ArchiveError) -> Result {
        guard let utf8Locale else { return try body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return try body()
    }
}
