import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A path that leads into an archive: `pack.zip/Chopin/Ballade.mid` is the member
/// `Chopin/Ballade.mid` of the file `pack.zip`, and `pack.zip` itself the archive as a folder.
/// No real file can lie under a regular file, so such a path is never another file's name; it
/// goes through one archive inside another at most (`outer.zip/inner.lzh/song.mid`).
public struct ArchivedPath: Hashable, Sendable {
    /// The archive's file.
    public let archive: FilePath
    /// The path inside it; empty for the archive itself.
    public let inside: FilePath

    /// The archive and the path inside it, when `path` is an archive's file or leads into one;
    /// nil for a real file or folder, or a path that leads nowhere.
    public init?(_ path: FilePath) {
        let bytes = path.bytes
        var end = bytes.count
        while end > 0 {
            var info = stat()
            let prefix = FilePath(bytes: bytes[..<end])
            if prefix.withPlatformString({ stat($0, &info) }) == 0 {
                guard info.st_mode & S_IFMT == S_IFREG, ArchiveFormat(fileAt: prefix) != nil else { return nil }
                archive = prefix
                inside = FilePath(bytes: bytes[min(bytes.count, end + 1)...])
                return
            }
            guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return nil }
            end = slash
        }
        return nil
    }

    /// Whether this is the archive itself.
    public var isArchive: Bool { inside.isEmpty }

    /// The bytes of the member this path names.
    public func read(memberLimit: Int) throws(ArchiveError) -> [UInt8] {
        let (archive, member) = try level(memberLimit: memberLimit)
        guard let member, let data = archive.data(of: member) else {
            if let member, let limit = archive.warnings.lazy.compactMap({ $0.tooLargeLimit(of: member) }).first {
                throw .memberTooLarge(limit: limit)
            }
            if let member, archive.warnings.contains(.encrypted(member)) { throw .encrypted }
            if let member, let error = archive.warnings.lazy.compactMap({ $0.decodingError(of: member) }).first { throw .notDecoded(error) }
            throw .noSuchMember
        }
        return data
    }

    /// What this path holds as a folder: the archive (or the archive inside it), the folders in it
    /// at this place (archives inside it among them), and its files here.
    public func folder(memberLimit: Int) throws(ArchiveError) -> ArchiveFolder {
        let (archive, member) = try level(memberLimit: memberLimit, asFolder: true)
        return ArchiveFolder(archive: archive, at: member ?? FilePath(""))
    }

    /// The archive that holds the place this path names, opening one inside another when the path
    /// goes through it, and the place's name in it.
    private func level(memberLimit: Int, asFolder: Bool = false) throws(ArchiveError) -> (Archive, FilePath?) {
        let outer = try Archive.open(archive, memberLimit: memberLimit)
        guard !inside.isEmpty else { return (outer, nil) }
        if outer.data(of: inside) != nil, !(asFolder && ArchiveFormat.hasArchiveName(inside)) { return (outer, inside) }
        if asFolder, ArchiveFormat.hasArchiveName(inside), outer.data(of: inside) != nil {
            return (try outer.nested(inside, memberLimit: memberLimit), nil)
        }
        // Through an archive inside this one?
        let bytes = inside.bytes
        for slash in bytes.indices where bytes[slash] == UInt8(ascii: "/") {
            let prefix = FilePath(bytes: bytes[..<slash])
            guard ArchiveFormat.hasArchiveName(prefix), outer.data(of: prefix) != nil else { continue }
            let nested = try outer.nested(prefix, memberLimit: memberLimit)
            let rest = Array(bytes[(slash + 1)...])
            // Through an archive inside that one: not opened.
            for deeper in rest.indices where rest[deeper] == UInt8(ascii: "/") {
                let name = FilePath(bytes: rest[..<deeper])
                if ArchiveFormat.hasArchiveName(name), nested.data(of: name) != nil { throw .nestedTooDeep }
            }
            return (nested, FilePath(bytes: rest))
        }
        return (outer, inside)
    }
}
