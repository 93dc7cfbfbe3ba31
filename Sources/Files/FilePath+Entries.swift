import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension FilePath {
    /// The names in this folder but `.` and `..`, as bytes, whatever their encoding; `nil` with
    /// `errno` set when the folder cannot be read.
    public func entryNames() -> [FilePath.Component]? {
        guard let directory = withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [FilePath.Component] = []
        // The name is read where it lies: a record is as long as its name, and a copy of the whole
        // 256-byte field could read past the end of the folder's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = FilePath.Component(platformString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            // nil for "." and "..", which are no names of their own.
            if let name, name.kind == .regular { names.append(name) }
        }
        return names
    }

    /// What is here, links followed; nil when nothing is (a dangling link included, which is what
    /// Debian's alternatives leave when a package goes).
    public var kind: FileType? {
        try? stat().type
    }

    /// Whether this process may read the file.
    public var isReadable: Bool {
        withPlatformString { access($0, R_OK) } == 0
    }
}
