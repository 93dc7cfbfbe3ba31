import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

extension FilePath {
    /// The folder this path's file is in: "." for a bare name.
    public var containingFolder: FilePath {
        let folder = removingLastComponent()
        return folder.isEmpty ? "." : folder
    }

    /// Why a folder could not be made: the folder on the way that failed, and the system's error.
    public struct FolderCreationError: Error, Hashable, Sendable, CustomStringConvertible {
        public let folder: FilePath
        public let errno: Errno

        public var description: String {
            errno == .fileExists ? "\(folder.text) is a file, not a folder" : "cannot create \(folder.text): \(SystemError.text(errno.rawValue))"
        }
    }

    /// Makes this folder and those above it that are missing, as `mkdir -p` does, each with
    /// `permissions` (before the umask). Something other than a folder on the way is an error
    /// (`EEXIST`, for that path).
    ///
    /// On bytes, not through `components`: folders are made on threads other than the main one
    /// too (thumbnails for the media keys), where that accessor is not safe (see
    /// ``FilePath/relativeBytes(under:)``).
    public func makeFolders(permissions: FilePermissions) throws(FolderCreationError) {
        let bytes = self.bytes
        let slash = UInt8(ascii: "/")
        let ends = bytes.indices.filter { $0 > 0 && bytes[$0] == slash && bytes[$0 - 1] != slash } + (bytes.last == slash ? [] : [bytes.count])
        for end in ends {
            let prefix = FilePath(bytes: bytes[..<end])
            if prefix.withPlatformString({ mkdir($0, permissions.rawValue) }) == 0 { continue }
            let cause = Errno(rawValue: Glibc.errno)
            guard cause == .fileExists, prefix.isFolder else { throw FolderCreationError(folder: prefix, errno: cause) }
        }
    }

    /// Removes this folder if it is empty (`rmdir(2)`), and leaves it as it is otherwise: how a
    /// render that made a folder and could write nothing into it takes it back.
    public func removeFolderIfEmpty() {
        _ = withPlatformString { rmdir($0) }
    }
}

extension FilePath {
    /// Gives this file the name `newPath`, replacing what is there (`rename(2)`): how a damaged
    /// file is set aside.
    public func rename(to newPath: FilePath) throws(Errno) {
        let renamed = withPlatformString { from in newPath.withPlatformString { to in Glibc.rename(from, to) } }
        guard renamed == 0 else { throw Errno.current }
    }
}
