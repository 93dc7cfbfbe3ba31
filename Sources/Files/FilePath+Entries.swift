import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension FilePath {
    /// The names in this folder but `.` and `..`, as bytes, whatever their encoding; `nil` with
    /// `errno` set when the folder cannot be read.
    public func entryNames() -> [FilePath.Component]? {
        entries()?.map(\.name)
    }

    /// A name in a folder, with what the folder itself says of it.
    public struct FolderEntryName: Sendable {
        public let name: FilePath.Component
        /// A plain file, not a link, as the folder says; false when it says otherwise or nothing
        /// (some file systems never do: look the path up to know).
        public let isPlainFile: Bool
    }

    /// The entries of this folder but `.` and `..`, their names as bytes, whatever their
    /// encoding; `nil` with `errno` set when the folder cannot be read.
    public func entries() -> [FolderEntryName]? {
        guard let directory = withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var entries: [FolderEntryName] = []
        // The name is read where it lies: a record is as long as its name, and a copy of the whole
        // 256-byte field could read past the end of the folder's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = FilePath.Component(platformString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            // nil for "." and "..", which are no names of their own.
            if let name, name.kind == .regular { entries.append(FolderEntryName(name: name, isPlainFile: entry.pointee.d_type == DT_REG)) }
        }
        return entries
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
