#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few questions this module asks the file system, through the C library, so
/// that it needs no Foundation.
enum FileSystem {
    enum Kind: Equatable {
        case file, folder, other
    }

    /// What is at `path`, following symbolic links; nil when nothing is (a dangling
    /// link included, which is what Debian's alternatives leave when a package goes).
    static func kind(at path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The names in a folder, without `.` and `..`; nil when it cannot be listed.
    static func names(inFolder path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        // The name is read where it lies: a copy of the whole 256-byte field could read past the
        // end of the folder's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(folder) {
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func currentDirectory() -> String? {
        guard let buffer = getcwd(nil, 0) else { return nil }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// The running program, from `/proc/self/exe` (Linux), links resolved.
    static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    enum ReadError: Error {
        case missing
        case unusable(String)
    }

    /// A whole small file. O_NONBLOCK: a FIFO put where the file should be would
    /// otherwise hang the program on open before fstat can say it is no file.
    static func read(path: String, limit: Int) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missing }
            throw .unusable("cannot read: " + systemError())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unusable("cannot read: " + systemError()) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .unusable("is a folder, not a configuration file")
        default: throw .unusable("is not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw .unusable("is \(info.st_size) bytes, too large for a configuration file (at most \(limit))")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw .unusable("cannot read: " + systemError())
            }
        }
        throw .unusable("is more than \(limit) bytes, too large for a configuration file")
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
