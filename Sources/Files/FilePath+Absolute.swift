import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension FilePath {
    /// The process's working folder; "/" when it has none any more (removed under it).
    public static var currentDirectory: FilePath {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return FilePath(platformString: buffer)
    }

    /// The running program (`/proc/self/exe`, links resolved), or nil where there is none.
    public static var currentExecutable: FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return FilePath(platformString: buffer)
    }

    /// This path from `/`: relative ones start at `workingDirectory`, and `.` parts go. `..` is
    /// kept, since dropping it is wrong behind a symbolic link. (FilePath itself drops doubled and
    /// trailing slashes.)
    public func absolute(in workingDirectory: @autoclosure () -> FilePath = .currentDirectory) -> FilePath {
        var absolute = isAbsolute ? self : workingDirectory().pushing(self)
        // Looked for on the bytes first: an edit of a path's components costs more than a look,
        // and `components` is not safe off the main thread (see ``relativeBytes(under:)``), where
        // folder settings look SoundFonts up; a path with a `.` in it is rare.
        let names = absolute.bytes.split(separator: UInt8(ascii: "/"))
        if names.contains(where: { $0.elementsEqual([UInt8(ascii: ".")]) }) {
            absolute.components.removeAll { $0.kind == .currentDirectory }
        }
        return absolute
    }
}
